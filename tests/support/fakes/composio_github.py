"""The fake Composio's GitHub tools: each calls the fake GitHub's REST API, as Composio calls
GitHub's, and passes the answer through with Composio's two changes: `data` is an object, so a
list arrives as `{"details": [...]}`; and a directory's contents are its own metadata (Composio's
description of GITHUB_GET_REPOSITORY_CONTENT), taken here from its parent's listing."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import httpx


class GitHubFailed(Exception):
    """GitHub answered with an error: Composio reports it as an unsuccessful result."""


class ComposioGitHub:
    def __init__(self, base_url: str, token: str) -> None:
        self.http = httpx.Client(base_url=base_url, headers={"Authorization": f"token {token}"}, timeout=30)

    def call(self, method: str, path: str, params: dict[str, Any] | None = None, body: Any = None) -> Any:
        query = {
            k: str(v).lower() if isinstance(v, bool) else v
            for k, v in (params or {}).items()
            if v is not None
        }
        response = self.http.request(method, path, params=query, json=body)
        data = response.json() if response.content else {}
        if response.status_code >= 400:
            message = data.get("message", "") if isinstance(data, dict) else str(data)
            raise GitHubFailed(f"{response.status_code} {response.reason_phrase}: {message}")
        return data

    def run(self, slug: str, a: dict[str, Any]) -> dict[str, Any]:
        repo = f"/repos/{a.get('owner')}/{a.get('repo')}"
        pages = {"per_page": a.get("per_page"), "page": a.get("page")}
        data: Any
        if slug == "GITHUB_GET_REPOSITORY_CONTENT":
            data = self.content(repo, str(a["path"]).strip("/"), a.get("ref"))
        elif slug == "GITHUB_GET_A_TREE":
            data = self.call(
                "GET", f"{repo}/git/trees/{a['tree_sha']}", {"recursive": "1" if a.get("recursive") else None}
            )
        elif slug == "GITHUB_CREATE_OR_UPDATE_FILE_CONTENTS":
            people = {
                who: {k: a.get(f"{who}__{k}") for k in ("name", "email", "date") if a.get(f"{who}__{k}")}
                for who in ("author", "committer")
            }
            body = {k: a.get(k) for k in ("message", "content", "sha", "branch") if a.get(k) is not None}
            body.update({who: person for who, person in people.items() if person})
            data = self.call("PUT", f"{repo}/contents/{quote(str(a['path']).strip('/'))}", body=body)
        elif slug == "GITHUB_CREATE_A_REFERENCE":
            data = self.call("POST", f"{repo}/git/refs", body={"ref": a["ref"], "sha": a["sha"]})
        elif slug == "GITHUB_GET_A_BRANCH":
            data = self.call("GET", f"{repo}/branches/{a['branch']}")
        elif slug == "GITHUB_LIST_BRANCHES":
            data = self.call("GET", f"{repo}/branches", {**pages, "protected": a.get("protected")})
        elif slug == "GITHUB_CREATE_A_PULL_REQUEST":
            keys = ("title", "head", "base", "body", "draft", "maintainer_can_modify", "issue", "head_repo")
            data = self.call("POST", f"{repo}/pulls", body={k: a[k] for k in keys if a.get(k) is not None})
        elif slug == "GITHUB_LIST_PULL_REQUESTS":
            keys = ("state", "head", "base", "sort", "direction")
            data = self.call("GET", f"{repo}/pulls", {**pages, **{k: a.get(k) for k in keys}})
        elif slug == "GITHUB_GET_A_PULL_REQUEST":
            data = self.call("GET", f"{repo}/pulls/{a['pull_number']}")
        elif slug == "GITHUB_LIST_PULL_REQUESTS_FILES":
            data = self.call("GET", f"{repo}/pulls/{a['pull_number']}/files", pages)
        elif slug == "GITHUB_COMPARE_TWO_COMMITS":
            data = self.call("GET", f"{repo}/compare/{a['basehead']}", pages)
        elif slug == "GITHUB_LIST_COMMITS":
            keys = ("sha", "path", "author", "committer", "since", "until")
            data = self.call("GET", f"{repo}/commits", {**pages, **{k: a.get(k) for k in keys}})
        else:
            raise GitHubFailed(f"the fake has no GitHub tool {slug}")
        return {"details": data} if isinstance(data, list) else data

    def content(self, repo: str, path: str, ref: str | None) -> dict[str, Any]:
        found = self.call("GET", f"{repo}/contents/{quote(path)}", {"ref": ref})
        if not isinstance(found, list):
            return dict(found)
        parent, _, name = path.rpartition("/")
        if not path:  # the root: no parent lists it, its tree is the commit's
            ref = ref or self.call("GET", repo)["default_branch"]
            tree = self.call("GET", f"{repo}/git/trees/{ref}")
            links = {"self": tree["url"], "git": tree["url"], "html": tree["url"]}
            return {
                "type": "dir",
                "size": 0,
                "name": "",
                "path": "",
                "sha": tree["sha"],
                "url": tree["url"],
                "git_url": tree["url"],
                "html_url": tree["url"],
                "download_url": None,
                "_links": links,
            }
        listing = self.call("GET", f"{repo}/contents/{quote(parent)}", {"ref": ref})
        return dict(next(e for e in listing if e["name"] == name))
