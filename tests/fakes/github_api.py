"""A small stateful GitHub REST fake for PyGithub, over the sandbox world's repos.

Serves exactly the endpoints the live backend and janitor use. Responses start from GitHub's own
examples in the official OpenAPI description (tests/fixtures/openapi/github.json), with this
repo's facts laid over them; tests validate every response served against the same description.
Git semantics (blob shas, commits, diffs) are the sandbox's (`evals.world.git`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from pathlib import Path
from typing import Any

from evals.jsonio import canonical
from evals.world.git import add_commit, blob_sha, resolve
from evals.world.model import Commit, PullRequest, Repo
from tests.fakes import FakeServer, Handler, HttpError, Request, Universe

OPENAPI = Path(__file__).resolve().parent.parent / "fixtures" / "openapi" / "github.json"


def load_openapi() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(OPENAPI.read_text(encoding="utf-8"))
    return data


def route(path: str) -> str:
    """OpenAPI path -> regex: `{ref}` spans slashes (heads/main), other parameters do not."""
    return re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m[1]}>.+)" if m[1] == "ref" else f"(?P<{m[1]}>[^/]+)", path)


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

    def pull_json(self, repo: Repo, pr: PullRequest) -> dict[str, Any]:
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}/pulls", repo.full_name)[0]
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

    def tree_json(self, repo: Repo, sha: str, tree: dict[str, str]) -> dict[str, Any]:
        base = f"{self.url}/repos/{repo.full_name}/git"
        return {
            "sha": sha,
            "url": f"{base}/trees/{sha}",
            "truncated": False,
            "tree": [
                {
                    "path": path,
                    "mode": "100644",
                    "type": "blob",
                    "sha": blob,
                    "size": len(repo.blobs[blob].encode()),
                    "url": f"{base}/blobs/{blob}",
                }
                for path, blob in sorted(tree.items())
            ],
        }

    def get_tree(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        sha = request.params["tree_sha"]
        tree = self.files(repo, sha)
        return 200, self.tree_json(repo, sha if sha in self.trees else tree_sha(tree), tree)

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
        pulls = [p for p in repo.pulls if state == "all" or p.state == state]
        return 200, [self.pull_json(repo, p) for p in pulls]

    def compare(self, request: Request) -> tuple[int, Any]:
        from evals.world.git import history, merge_base

        repo = self.repo(request)
        base_ref, sep, head_ref = request.params["basehead"].partition("...")
        if not sep:
            raise HttpError(404, {"message": "Not Found"})
        try:
            base, head = resolve(repo, base_ref), resolve(repo, head_ref)
        except Exception as exc:
            raise HttpError(404, {"message": "Not Found"}) from exc
        mb = merge_base(repo, base, head)
        ahead = [c for c in history(repo, head) if c.sha not in {x.sha for x in history(repo, base)}]
        out: dict[str, Any] = self.example("GET /repos/{owner}/{repo}/compare/{basehead}", repo.full_name)
        merge(out, {"merge_base_commit": {"sha": mb.sha}, "base_commit": {"sha": base.sha}})
        out.update(
            {
                "status": "ahead" if ahead else "identical",
                "ahead_by": len(ahead),
                "behind_by": 0,
                "total_commits": len(ahead),
                "commits": [],
                "files": [],
            }
        )
        return 200, out

    def list_branches(self, request: Request) -> tuple[int, Any]:
        repo = self.repo(request)
        return 200, [
            {
                "name": name,
                "commit": {"sha": sha, "url": f"{self.url}/repos/{repo.full_name}/commits/{sha}"},
                "protected": False,
            }
            for name, sha in sorted(repo.branches.items())
        ]
