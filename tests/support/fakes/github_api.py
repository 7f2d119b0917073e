"""A small stateful GitHub REST fake for PyGithub, over the sandbox world's repos.

Serves exactly the endpoints the live backend and janitor use. Responses start from GitHub's own
examples in the official OpenAPI description (tests/fixtures/openapi/github.json), with this
repo's facts laid over them; tests validate every response served against the same description.
Git semantics (blob shas, commits, diffs) are the sandbox's (`evals.world.sandbox.git`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any

from evals.core.jsonio import canonical
from evals.world.sandbox.git import add_commit, blob_sha, history, merge_base, resolve
from evals.world.sandbox.model import Commit, PullRequest, Repo
from evals.world.treediff import changed_paths, unified_diff
from tests.support.fakes import FakeServer, Handler, HttpError, Request, Universe
from tests.support.paths import FIXTURES

OPENAPI = FIXTURES / "openapi" / "github.json"


def load_openapi() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(OPENAPI.read_text(encoding="utf-8"))
    return data


SPANNING = {"ref", "path", "branch", "basehead"}  # parameters that may hold slashes (heads/main, a/b.py)


def route(path: str) -> str:
    """OpenAPI path -> regex: a ref, file path, branch or basehead spans slashes; others do not."""
    return re.sub(
        r"\{(\w+)\}", lambda m: f"(?P<{m[1]}>.*)" if m[1] in SPANNING else f"(?P<{m[1]}>[^/]+)", path
    )


def tree_sha(tree: dict[str, str]) -> str:
    return hashlib.sha1(b"tree " + canonical(tree).encode()).hexdigest()


def merge(base: dict[str, Any], overlay: dict[str, Any]) -> dict[str, Any]:
    for key, value in overlay.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge(base[key], value)
        else:
            base[key] = value
    return base


class FakeGitHub(FakeServer):
    def __init__(self, universe: Universe, token: str, login: str, orgs: list[str]) -> None:
        self.token = token
        self.login = login
        self.orgs = set(orgs)
        self.trees: dict[str, dict[str, str]] = {}
        self.settling = 0  # fault: a new repo answers 404 to this many requests before it is ready
        self.unsettled: dict[str, int] = {}
        self.openapi = load_openapi()
        endpoints: list[tuple[str, str, Handler]] = [
            ("GET", "/user", self.get_user),
            ("GET", "/user/repos", self.list_user_repos),
            ("POST", "/user/repos", self.create_user_repo),
            ("GET", "/orgs/{org}", self.get_org),
            ("GET", "/orgs/{org}/repos", self.list_org_repos),
            ("POST", "/orgs/{org}/repos", self.create_org_repo),
            ("POST", "/repos/{owner}/{repo}/git/trees", self.create_tree),
            ("GET", "/repos/{owner}/{repo}/git/trees/{tree_sha}", self.get_tree),
            ("POST", "/repos/{owner}/{repo}/git/commits", self.create_commit),
            ("GET", "/repos/{owner}/{repo}/git/ref/{ref}", self.get_ref),
            ("POST", "/repos/{owner}/{repo}/git/refs", self.create_ref),
            ("PATCH", "/repos/{owner}/{repo}/git/refs/{ref}", self.update_ref),
            ("GET", "/repos/{owner}/{repo}/git/blobs/{file_sha}", self.get_blob),
            ("GET", "/repos/{owner}/{repo}/pulls", self.list_pulls),
            ("GET", "/repos/{owner}/{repo}/compare/{basehead}", self.compare),
            ("GET", "/repos/{owner}/{repo}/branches", self.list_branches),
            ("GET", "/repos/{owner}/{repo}/branches/{branch}", self.get_branch),
            ("GET", "/repos/{owner}/{repo}/contents/{path}", self.get_contents),
            ("PUT", "/repos/{owner}/{repo}/contents/{path}", self.put_contents),
            ("POST", "/repos/{owner}/{repo}/pulls", self.create_pull),
            ("GET", "/repos/{owner}/{repo}/pulls/{pull_number}/files", self.pull_files),
            ("GET", "/repos/{owner}/{repo}/pulls/{pull_number}", self.get_pull),
            ("GET", "/repos/{owner}/{repo}/commits", self.list_commits),
            ("GET", "/repos/{owner}/{repo}", self.get_repo),
            ("PATCH", "/repos/{owner}/{repo}", self.edit_repo),
            ("DELETE", "/repos/{owner}/{repo}", self.delete_repo),
        ]
        super().__init__(universe, [(m, route(p), h) for m, p, h in endpoints])
        self.openapi_paths = {route(p): p for _, p, _ in endpoints}

    def authorised(self, request: Request) -> bool:
        auth = request.headers.get("authorization", "")
        return auth in (f"token {self.token}", f"Bearer {self.token}")

    # -- rendering from GitHub's examples -------------------------------------------------------

    def example(self, key: str, full_name: str = "octocat/Hello-World") -> Any:
        found = self.openapi["endpoints"][key]["example"]
        text = json.dumps(found).replace("https://api.github.com", self.url)
        return json.loads(
            text.replace("octocat/Hello-World", full_name).replace("octocat/hello-world", full_name)
        )

    def repo_json(self, repo: Repo) -> dict[str, Any]:
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}", repo.full_name)
        out.pop("parent", None), out.pop("source", None), out.pop("template_repository", None)
        return merge(
            out,
            {
                "id": int(hashlib.sha1(repo.full_name.encode()).hexdigest()[:8], 16),
                "name": repo.name,
                "full_name": repo.full_name,
                "private": True,
                "visibility": "private",
                "fork": False,
                "default_branch": repo.default_branch,
                "language": None,
                "has_discussions": False,
                "html_url": f"https://github.com/{repo.full_name}",
                "owner": {
                    "login": repo.owner,
                    "type": "User" if repo.owner == self.login else "Organization",
                },
            },
        )

    def commit_json(self, repo: Repo, commit: Commit) -> dict[str, Any]:
        out: dict[str, Any] = self.example("POST /repos/{owner}/{repo}/git/commits", repo.full_name)
        base = f"{self.url}/repos/{repo.full_name}/git"
        sha = tree_sha(commit.tree)
        self.trees[sha] = commit.tree
        return merge(
            out,
            {
                "sha": commit.sha,
                "url": f"{base}/commits/{commit.sha}",
                "html_url": f"https://github.com/{repo.full_name}/commit/{commit.sha}",
                "message": commit.message,
                "author": {"name": commit.author, "date": commit.timestamp},
                "committer": {"name": commit.author, "date": commit.timestamp},
                "tree": {"sha": sha, "url": f"{base}/trees/{sha}"},
                "parents": [
                    {
                        "sha": p,
                        "url": f"{base}/commits/{p}",
                        "html_url": f"https://github.com/{repo.full_name}/commit/{p}",
                    }
                    for p in commit.parents
                ],
            },
        )

    def ref_json(self, repo: Repo, branch: str) -> dict[str, Any]:
        sha = repo.branches[branch]
        return {
            "ref": f"refs/heads/{branch}",
            "node_id": "REF_" + sha[:12],
            "url": f"{self.url}/repos/{repo.full_name}/git/refs/heads/{branch}",
            "object": {
                "type": "commit",
                "sha": sha,
                "url": f"{self.url}/repos/{repo.full_name}/git/commits/{sha}",
            },
        }

    def pull_json(self, repo: Repo, pr: PullRequest, full: bool = False) -> dict[str, Any]:
        """A pull request as the list gives it, or (full) as one pull request is given."""
        if full:
            out: dict[str, Any] = self.example(
                "GET /repos/{owner}/{repo}/pulls/{pull_number}", repo.full_name
            )
            out.update({"merged": pr.merged, "mergeable": True, "merged_by": None, "assignees": []})
        else:
            out = self.example("GET /repos/{owner}/{repo}/pulls", repo.full_name)[0]
        out["milestone"] = None
        out.update({"requested_teams": [], "requested_reviewers": [], "labels": []})
        head_sha = repo.branches.get(pr.head, "")
        return merge(
            out,
            {
                "number": pr.number,
                "title": pr.title,
                "body": pr.body,
                "state": pr.state,
                "draft": False,
                "merged_at": pr.created_at if pr.merged else None,
                "closed_at": None,
                "created_at": pr.created_at,
                "updated_at": pr.created_at,
                "url": f"{self.url}/repos/{repo.full_name}/pulls/{pr.number}",
                "html_url": f"https://github.com/{repo.full_name}/pull/{pr.number}",
                "head": {
                    "ref": pr.head,
                    "sha": head_sha,
                    "label": f"{repo.owner}:{pr.head}",
                    "repo": self.repo_json(repo),
                },
                "base": {
                    "ref": pr.base,
                    "sha": repo.branches.get(pr.base, ""),
                    "label": f"{repo.owner}:{pr.base}",
                    "repo": self.repo_json(repo),
                },
            },
        )

    # -- lookups ----------------------------------------------------------------------------------

    def repo(self, request: Request) -> Repo:
        found = self.universe.world.repo(request.params["owner"], request.params["repo"])
        if found is None:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        if self.unsettled.get(found.name.lower(), 0) > 0:  # just created: not visible everywhere yet
            self.unsettled[found.name.lower()] -= 1
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return found

    def files(self, repo: Repo, sha: str) -> dict[str, str]:
        if sha in self.trees:
            return self.trees[sha]
        try:
            return resolve(repo, sha).tree
        except Exception as exc:
            raise HttpError(404, {"message": "Not Found", "status": "404"}) from exc

    # -- handlers ---------------------------------------------------------------------------------

    def get_user(self, request: Request) -> tuple[int, Any]:
        out = self.example("GET /user")
        return 200, merge(out, {"login": self.login, "type": "User", "url": f"{self.url}/users/{self.login}"})

    def get_org(self, request: Request) -> tuple[int, Any]:
        org = request.params["org"]
        if org not in self.orgs:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return 200, merge(
            self.example("GET /orgs/{org}"),
            {"login": org, "archived_at": None, "url": f"{self.url}/orgs/{org}"},
        )

    def _owned(self, owner: str) -> list[dict[str, Any]]:
        repos = [r for _, r in sorted(self.universe.world.repos.items()) if r.owner == owner]
        return [self.repo_json(r) for r in repos]

    def list_user_repos(self, request: Request) -> tuple[int, Any]:
        return 200, self._owned(self.login)

    def list_org_repos(self, request: Request) -> tuple[int, Any]:
        if request.params["org"] not in self.orgs:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return 200, self._owned(request.params["org"])

    def _create(self, owner: str, body: dict[str, Any]) -> tuple[int, Any]:
        world = self.universe.world
        name = str(body.get("name", ""))
        if not re.fullmatch(r"[A-Za-z0-9._-]{1,100}", name):
            raise HttpError(422, {"message": "Repository creation failed.", "errors": [{"field": "name"}]})
        if name.lower() in world.repos:
            raise HttpError(
                422,
                {
                    "message": "Repository creation failed.",
                    "errors": [{"message": "name already exists on this account"}],
                },
            )
        repo = Repo(owner=owner, name=name, default_branch="main")
        if body.get("auto_init"):
            commit = add_commit(repo, [], {"README.md": f"# {name}\n"}, "Initial commit", owner, world.tick())
            repo.branches["main"] = commit.sha
        world.repos[name.lower()] = repo
        self.unsettled[name.lower()] = self.settling
        return 201, self.repo_json(repo)

    def create_user_repo(self, request: Request) -> tuple[int, Any]:
        return self._create(self.login, request.body or {})

    def create_org_repo(self, request: Request) -> tuple[int, Any]:
        if request.params["org"] not in self.orgs:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return self._create(request.params["org"], request.body or {})

    def get_repo(self, request: Request) -> tuple[int, Any]:
        return 200, self.repo_json(self.repo(request))

    def edit_repo(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        branch = (request.body or {}).get("default_branch")
        if branch:
            if branch not in repo.branches:
                raise HttpError(422, {"message": "Validation Failed"})
            repo.default_branch = branch
        return 200, self.repo_json(repo)

    def delete_repo(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        del self.universe.world.repos[repo.name.lower()]
        return 204, None

    def create_tree(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        body = request.body or {}
        if not repo.branches:
            raise HttpError(409, {"message": "Git Repository is empty."})
        tree = dict(self.files(repo, body["base_tree"])) if body.get("base_tree") else {}
        for entry in body.get("tree", []):
            if entry.get("content") is not None:
                sha = blob_sha(entry["content"])
                repo.blobs[sha] = entry["content"]
            else:
                sha = entry.get("sha")
            if sha is None:
                tree.pop(entry["path"], None)
            else:
                tree[entry["path"]] = sha
        sha = tree_sha(tree)
        self.trees[sha] = tree
        return 201, self.tree_json(repo, sha, tree)

    def tree_json(self, repo: Repo, sha: str, tree: dict[str, str], recursive: bool = True) -> dict[str, Any]:
        """A git tree: every blob (and the directories above them) when recursive, else the top level."""
        base = f"{self.url}/repos/{repo.full_name}/git"
        entries: dict[str, dict[str, Any]] = {}
        for path, blob in sorted(tree.items()):
            parts = path.split("/")
            for depth in range(1, len(parts)):
                folder = "/".join(parts[:depth])
                if folder not in entries and (recursive or depth == 1):
                    sub = self.subtree(tree, folder)
                    entries[folder] = {
                        "path": folder,
                        "mode": "040000",
                        "type": "tree",
                        "sha": sub,
                        "url": f"{base}/trees/{sub}",
                    }
            if recursive or len(parts) == 1:
                entries[path] = {
                    "path": path,
                    "mode": "100644",
                    "type": "blob",
                    "sha": blob,
                    "size": len(repo.blobs[blob].encode()),
                    "url": f"{base}/blobs/{blob}",
                }
        return {"sha": sha, "url": f"{base}/trees/{sha}", "truncated": False, "tree": list(entries.values())}

    def subtree(self, tree: dict[str, str], folder: str) -> str:
        """The sha of a directory's own tree, registered so it can be fetched by that sha."""
        prefix = folder + "/"
        files = {p[len(prefix) :]: sha for p, sha in tree.items() if p.startswith(prefix)}
        sha = tree_sha(files)
        self.trees[sha] = files
        return sha

    def get_tree(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        sha = request.params["tree_sha"]
        tree = self.files(repo, sha)
        recursive = bool(request.query.get("recursive"))
        return 200, self.tree_json(repo, sha if sha in self.trees else tree_sha(tree), tree, recursive)

    def create_commit(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        body = request.body or {}
        tree = self.trees.get(str(body.get("tree")))
        if tree is None:
            raise HttpError(422, {"message": "Tree SHA does not exist"})
        parents = [str(p) for p in body.get("parents", [])]
        if any(p not in repo.commits for p in parents):
            raise HttpError(422, {"message": "Parent SHA does not exist"})
        files = {path: repo.blobs[sha] for path, sha in tree.items()}
        commit = add_commit(
            repo, parents, files, str(body.get("message", "")), self.login, self.universe.world.tick()
        )
        return 201, self.commit_json(repo, commit)

    def _branch(self, request: Request) -> str:
        ref = request.params["ref"]
        if not ref.startswith("heads/"):
            raise HttpError(404, {"message": "Not Found"})
        return ref[len("heads/") :]

    def get_ref(self, request: Request) -> tuple[int, Any]:
        repo, branch = self.repo(request), self._branch(request)
        if branch not in repo.branches:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return 200, self.ref_json(repo, branch)

    def create_ref(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        body = request.body or {}
        ref, sha = str(body.get("ref", "")), str(body.get("sha", ""))
        if not ref.startswith("refs/heads/") or sha not in repo.commits:
            raise HttpError(422, {"message": "Reference update failed"})
        if ref[len("refs/heads/") :] in repo.branches:
            raise HttpError(422, {"message": "Reference already exists"})
        repo.branches[ref[len("refs/heads/") :]] = sha
        return 201, self.ref_json(repo, ref[len("refs/heads/") :])

    def update_ref(self, request: Request) -> tuple[int, Any]:
        repo, branch = self.repo(request), self._branch(request)
        sha = str((request.body or {}).get("sha", ""))
        if branch not in repo.branches or sha not in repo.commits:
            raise HttpError(422, {"message": "Reference update failed"})
        repo.branches[branch] = sha
        return 200, self.ref_json(repo, branch)

    def get_blob(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        sha = request.params["file_sha"]
        if sha not in repo.blobs:
            raise HttpError(404, {"message": "Not Found"})
        data = repo.blobs[sha].encode()
        return 200, {
            "sha": sha,
            "node_id": "BLOB_" + sha[:12],
            "size": len(data),
            "url": f"{self.url}/repos/{repo.full_name}/git/blobs/{sha}",
            "content": base64.b64encode(data).decode(),
            "encoding": "base64",
        }

    def list_pulls(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        state = request.query.get("state", "open")
        head, base = request.query.get("head"), request.query.get("base")
        pulls = [
            p
            for p in reversed(repo.pulls)
            if (state == "all" or p.state == state)
            and (head is None or head.split(":")[-1] == p.head)
            and (base is None or base == p.base)
        ]
        if request.query.get("direction") == "asc":
            pulls.reverse()
        return 200, [self.pull_json(repo, p) for p in self.page(request, pulls)]

    def page(self, request: Request, items: list[Any]) -> list[Any]:
        size, number = int(request.query.get("per_page") or 30), int(request.query.get("page") or 1)
        return items[(number - 1) * size : number * size]

    def rest_commit(self, repo: Repo, commit: Commit) -> dict[str, Any]:
        """A commit as the commits endpoints list it (GitHub's example, with this commit's facts)."""
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}/commits", repo.full_name)[0]
        out.pop("files", None), out.pop("stats", None)
        base = f"{self.url}/repos/{repo.full_name}"
        tree = tree_sha(commit.tree)
        self.trees[tree] = commit.tree
        person = {
            "name": commit.author,
            "email": f"{commit.author}@users.noreply.github.com",
            "date": commit.timestamp,
        }
        return merge(
            out,
            {
                "sha": commit.sha,
                "node_id": "C_" + commit.sha[:16],
                "url": f"{base}/commits/{commit.sha}",
                "html_url": f"https://github.com/{repo.full_name}/commit/{commit.sha}",
                "comments_url": f"{base}/commits/{commit.sha}/comments",
                "author": None,
                "committer": None,
                "commit": {
                    "url": f"{base}/git/commits/{commit.sha}",
                    "author": person,
                    "committer": person,
                    "message": commit.message,
                    "comment_count": 0,
                    "tree": {"sha": tree, "url": f"{base}/git/trees/{tree}"},
                },
                "parents": [
                    {
                        "sha": p,
                        "url": f"{base}/commits/{p}",
                        "html_url": f"https://github.com/{repo.full_name}/commit/{p}",
                    }
                    for p in commit.parents
                ],
            },
        )

    def diff_entries(self, repo: Repo, before: dict[str, str], after: dict[str, str]) -> list[dict[str, Any]]:
        """Changed files as GitHub lists them: counts and the per-file patch (hunks only)."""
        out = []
        for path, status in changed_paths(before, after):
            hunks = [
                line
                for line in unified_diff(path, before.get(path), after.get(path)).splitlines()
                if not line.startswith(("---", "+++"))
            ]
            added = sum(line.startswith("+") for line in hunks)
            removed = sum(line.startswith("-") for line in hunks)
            now = after.get(path)
            sha = blob_sha(now if now is not None else before.get(path) or "")
            out.append(
                {
                    "sha": sha,
                    "filename": path,
                    "status": status,
                    "additions": added,
                    "deletions": removed,
                    "changes": added + removed,
                    "blob_url": f"https://github.com/{repo.full_name}/blob/{sha}/{path}",
                    "raw_url": f"https://github.com/{repo.full_name}/raw/{sha}/{path}",
                    "contents_url": f"{self.url}/repos/{repo.full_name}/contents/{path}",
                    "patch": "\n".join(hunks),
                }
            )
        return out

    def compare(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        base_ref, sep, head_ref = request.params["basehead"].partition("...")
        if not sep:
            raise HttpError(404, {"message": "Not Found"})
        try:
            base, head = resolve(repo, base_ref), resolve(repo, head_ref)
            mb = merge_base(repo, base, head)
        except Exception as exc:
            raise HttpError(404, {"message": "Not Found"}) from exc
        below = {c.sha for c in history(repo, mb)}
        ahead = [c for c in reversed(history(repo, head)) if c.sha not in below]
        behind = [c for c in history(repo, base) if c.sha not in below]
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}/compare/{basehead}", repo.full_name)
        merge(out, {"merge_base_commit": {"sha": mb.sha}, "base_commit": {"sha": base.sha}})
        status = "diverged" if ahead and behind else "ahead" if ahead else "behind" if behind else "identical"
        before = {p: repo.blobs[b] for p, b in mb.tree.items()}
        after = {p: repo.blobs[b] for p, b in head.tree.items()}
        out.update(
            {
                "status": status,
                "ahead_by": len(ahead),
                "behind_by": len(behind),
                "total_commits": len(ahead),
                "commits": [self.rest_commit(repo, c) for c in self.page(request, ahead)],
                "files": self.page(request, self.diff_entries(repo, before, after)),
            }
        )
        return 200, out

    def list_branches(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        names = [] if request.query.get("protected") == "true" else sorted(repo.branches)
        return 200, [
            {
                "name": name,
                "commit": {
                    "sha": repo.branches[name],
                    "url": f"{self.url}/repos/{repo.full_name}/commits/{repo.branches[name]}",
                },
                "protected": False,
            }
            for name in self.page(request, names)
        ]

    # -- what Composio's GitHub tools call ---------------------------------------------------------

    def get_branch(self, request: Request) -> tuple[int, Any]:
        repo, name = self.repo(request), request.params["branch"]
        if name not in repo.branches:
            raise HttpError(404, {"message": "Branch not found", "status": "404"})
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}/branches/{branch}", repo.full_name)
        out["protection"] = {
            "enabled": False,
            "required_status_checks": {"enforcement_level": "off", "contexts": [], "checks": []},
        }
        out["commit"] = self.rest_commit(repo, repo.commits[repo.branches[name]])
        return 200, merge(
            out,
            {
                "name": name,
                "protected": False,
                "protection_url": f"{self.url}/repos/{repo.full_name}/branches/{name}/protection",
                "_links": {
                    "self": f"{self.url}/repos/{repo.full_name}/branches/{name}",
                    "html": f"https://github.com/{repo.full_name}/tree/{name}",
                },
            },
        )

    def content_json(self, repo: Repo, path: str, kind: str, sha: str, ref: str, size: int) -> dict[str, Any]:
        api = f"{self.url}/repos/{repo.full_name}"
        git = f"{api}/git/{'blobs' if kind == 'file' else 'trees'}/{sha}"
        html = f"https://github.com/{repo.full_name}/{'blob' if kind == 'file' else 'tree'}/{ref}/{path}"
        own = f"{api}/contents/{path}?ref={ref}"
        return {
            "type": kind,
            "size": size,
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": sha,
            "url": own,
            "git_url": git,
            "html_url": html,
            "download_url": f"https://raw.githubusercontent.com/{repo.full_name}/{ref}/{path}"
            if kind == "file"
            else None,
            "_links": {"self": own, "git": git, "html": html},
        }

    def get_contents(self, request: Request) -> tuple[int, Any]:
        """A file (base64 content), or for a directory the list of its entries, as GitHub answers."""
        repo = self.repo(request)
        ref = request.query.get("ref") or repo.default_branch
        try:
            tree = resolve(repo, ref).tree
        except Exception as exc:
            raise HttpError(404, {"message": f"No commit found for the ref {ref}"}) from exc
        path = request.params["path"].strip("/")
        if path in tree:
            data = repo.blobs[tree[path]].encode()
            out = self.content_json(repo, path, "file", tree[path], ref, len(data))
            return 200, {**out, "encoding": "base64", "content": base64.b64encode(data).decode()}
        prefix = f"{path}/" if path else ""
        entries: dict[str, dict[str, Any]] = {}
        for file_path, sha in sorted(tree.items()):
            if not file_path.startswith(prefix):
                continue
            name, _, rest = file_path[len(prefix) :].partition("/")
            if rest:
                entries.setdefault(
                    name,
                    self.content_json(repo, prefix + name, "dir", self.subtree(tree, prefix + name), ref, 0),
                )
            else:
                entries[name] = self.content_json(
                    repo, file_path, "file", sha, ref, len(repo.blobs[sha].encode())
                )
        if not entries:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return 200, list(entries.values())

    def put_contents(self, request: Request) -> tuple[int, Any]:
        repo, body = self.repo(request), request.body or {}
        path = request.params["path"].strip("/")
        branch = str(body.get("branch") or repo.default_branch)
        if branch not in repo.branches:
            raise HttpError(404, {"message": f"Branch {branch} not found"})
        try:
            text = base64.b64decode(str(body.get("content", "")), validate=True).decode("utf-8")
        except (ValueError, UnicodeDecodeError) as exc:
            raise HttpError(422, {"message": "content is not valid Base64"}) from exc
        head = repo.commits[repo.branches[branch]]
        current = head.tree.get(path)
        if current is not None and body.get("sha") != current:
            if not body.get("sha"):
                raise HttpError(422, {"message": 'Invalid request.\n\n"sha" wasn\'t supplied.'})
            raise HttpError(409, {"message": f"{path} does not match {body.get('sha')}"})
        files = {p: repo.blobs[b] for p, b in head.tree.items()}
        files[path] = text
        author = (body.get("author") or body.get("committer") or {}).get("name") or self.login
        commit = add_commit(
            repo, [head.sha], files, str(body.get("message", "")), author, self.universe.world.tick()
        )
        repo.branches[branch] = commit.sha
        out: dict[str, Any] = self.example("PUT /repos/{owner}/{repo}/contents/{path}", repo.full_name)
        sha = commit.tree[path]
        out["content"] = self.content_json(repo, path, "file", sha, branch, len(text.encode()))
        merge(out["commit"], self.commit_json(repo, commit))
        for key in ("verification",):
            out["commit"].pop(key, None)
        out["commit"]["verification"] = {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
            "verified_at": None,
        }
        return (201 if current is None else 200), out

    def pull(self, request: Request) -> tuple[Repo, PullRequest]:
        repo = self.repo(request)
        number = int(request.params["pull_number"])
        found = next((p for p in repo.pulls if p.number == number), None)
        if found is None:
            raise HttpError(404, {"message": "Not Found", "status": "404"})
        return repo, found

    def create_pull(self, request: Request) -> tuple[int, Any]:
        repo, body = self.repo(request), request.body or {}
        head, base = str(body.get("head", "")).split(":")[-1], str(body.get("base", ""))
        invalid = {"message": "Validation Failed", "status": "422"}
        if head not in repo.branches or base not in repo.branches or not body.get("title"):
            raise HttpError(422, {**invalid, "errors": [{"resource": "PullRequest", "code": "invalid"}]})
        if repo.branches[head] == repo.branches[base]:
            raise HttpError(
                422, {**invalid, "errors": [{"message": f"No commits between {base} and {head}"}]}
            )
        if any(p.head == head and p.state == "open" for p in repo.pulls):
            raise HttpError(
                422, {**invalid, "errors": [{"message": f"A pull request already exists for {head}."}]}
            )
        pr = PullRequest(
            number=len(repo.pulls) + 1,
            title=str(body["title"]),
            body=str(body.get("body") or ""),
            head=head,
            base=base,
            created_at=self.universe.world.tick(),
        )
        repo.pulls.append(pr)
        return 201, self.pull_json(repo, pr, full=True)

    def get_pull(self, request: Request) -> tuple[int, Any]:
        repo, pr = self.pull(request)
        return 200, self.pull_json(repo, pr, full=True)

    def pull_files(self, request: Request) -> tuple[int, Any]:
        repo, pr = self.pull(request)
        head = resolve(repo, pr.head)
        base = merge_base(repo, resolve(repo, pr.base), head)
        before = {p: repo.blobs[b] for p, b in base.tree.items()}
        after = {p: repo.blobs[b] for p, b in head.tree.items()}
        return 200, self.page(request, self.diff_entries(repo, before, after))

    def list_commits(self, request: Request) -> tuple[int, Any]:
        repo, q = self.repo(request), request.query
        try:
            commits = history(repo, resolve(repo, q.get("sha") or repo.default_branch))
        except Exception as exc:
            raise HttpError(404, {"message": "Not Found", "status": "404"}) from exc
        path = q.get("path")
        if path:
            commits = [
                c
                for c in commits
                if not c.parents or c.tree.get(path) != repo.commits[c.parents[0]].tree.get(path)
            ]
        if q.get("author"):
            commits = [c for c in commits if q["author"].lower() in c.author.lower()]
        if q.get("since"):
            commits = [c for c in commits if c.timestamp >= q["since"]]
        if q.get("until"):
            commits = [c for c in commits if c.timestamp < q["until"]]
        return 200, [self.rest_commit(repo, c) for c in self.page(request, commits)]
