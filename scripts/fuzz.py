"""Helper of scripts/fuzz.sh, run with the Python of its virtual environment (.venv).

  FUZZ_TOKEN=<admin token> python scripts/fuzz.py seed URL ORG_ID ADMIN_USER_ID MEMBER_USER_ID VICTIM_USER_ID CONFIG_OUT
      Creates one resource of each kind in the organization through the API (a collection, a space, a
      page, a file, a change request, comments, a team, a SAML provider, a site with a section, a group,
      a share link, an OpenAPI specification, a translation, an import run, an integration and its
      installation, a token) and a second "victim" of most kinds, then writes the schemathesis
      configuration CONFIG_OUT: path parameters draw these real ids most of the time (so operations
      get past the 404 of a random id), except the one a DELETE removes, which draws the victim, so a
      DELETE early in the run does not turn every later operation on the main resource into a 404.

  python scripts/fuzz.py summary REPORT_DIR SUMMARY_OUT API_URL
      Counts requests and answers in schemathesis' NDJSON report (in REPORT_DIR, with its JSON report) and
      writes a Markdown summary (requests, 5xx, response-schema failures, schema-valid requests refused)
      to SUMMARY_OUT.
"""

from __future__ import annotations

import base64
import collections
import glob
import json
import os
import re
import sys
import time
import unicodedata
import urllib.error
import urllib.request
from typing import Any

PATH_PROBABILITY = 0.9  # the rest of the time schemathesis draws a random (usually unknown) id
BODY_PROBABILITY = 0.7
SLOW_MAX_EXAMPLES = 3


class Api:
    def __init__(self, base: str, token: str) -> None:
        self.base = base.rstrip("/")
        self.token = token

    def call(self, method: str, path: str, body: Any = None, *, raw: bytes | None = None,
             content_type: str = "application/json") -> Any:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            detail = error.read().decode(errors="replace")[:300]
            raise RuntimeError(f"{method} {path}: {error.code} {detail}") from None
        return json.loads(text) if text else None


def seed(base: str, org: str, admin: str, member: str, victim_user: str, out: str) -> None:
    api = Api(base, os.environ["FUZZ_TOKEN"])
    ids: dict[str, list[str]] = collections.defaultdict(list)  # parameter name -> real ids
    victims: dict[str, list[str]] = collections.defaultdict(list)  # parameter name -> ids a DELETE may remove
    skipped: list[str] = []

    def keep(name: str, value: str | None, *, victim: bool = False) -> None:
        if value:
            (victims if victim else ids)[name].append(value)

    def attempt(what: str, fn) -> Any:
        # a kind that cannot be seeded leaves its operations to random ids; the run goes on
        try:
            return fn()
        except Exception as error:  # noqa: BLE001
            if what != "import run":
                skipped.append(f"{what}: {error}")
            return None

    keep("organizationId", org)
    keep("userId", admin)
    keep("userId", member)
    keep("userId", victim_user, victim=True)
    keep("emailDomain", "example.com")

    for victim in (False, True):
        tag = "victim" if victim else "main"
        collection = attempt("collection", lambda: api.call(
            "POST", f"/v1/orgs/{org}/collections", {"title": f"Fuzz {tag} collection"}))
        keep("collectionId", collection and collection["id"], victim=victim)
        space = attempt("space", lambda: api.call("POST", f"/v1/orgs/{org}/spaces", {
            "title": f"Fuzz {tag} space", **({"parent": collection["id"]} if collection else {})}))
        keep("spaceId", space and space["id"], victim=victim)
        team = attempt("team", lambda: api.call("PUT", f"/v1/orgs/{org}/teams", {
            "title": f"Fuzz {tag} team", "members": [member]}))
        keep("teamId", team and team["id"], victim=victim)
        saml = attempt("SAML provider", lambda: api.call("POST", f"/v1/orgs/{org}/saml", {"label": f"Fuzz {tag}"}))
        keep("samlProviderId", saml and saml["id"], victim=victim)
        slug = f"fuzz-{tag}"
        spec = attempt("OpenAPI spec", lambda: api.call("POST", f"/v1/orgs/{org}/openapi", {
            "slug": slug, "source": {"text": json.dumps({
                "openapi": "3.0.3", "info": {"title": "Fuzz", "version": "1.0.0"},
                "paths": {"/ping": {"get": {"responses": {"200": {"description": "pong"}}}}}})}}))
        keep("specSlug", spec and slug, victim=victim)
        token_row = attempt("token", lambda: api.call("POST", "/v1/user/tokens", {"label": f"fuzz {tag}"}))
        # the main token is never a candidate: revoking it would end the run
        keep("tokenId", token_row and token_row["id"], victim=True)

    space = ids["spaceId"][0] if ids["spaceId"] else None
    if space:
        page = attempt("page", lambda: api.call("POST", f"/v1/spaces/{space}/content/pages", {
            "title": "Fuzz page", "markdown": "Hello, see [the other page](https://example.com)."}))
        keep("pageId", page and page["id"])
        keep("pagePath", page and page.get("path"))
        victim_page = attempt("victim page", lambda: api.call(
            "POST", f"/v1/spaces/{space}/content/pages", {"title": "Fuzz victim page"}))
        keep("pageId", victim_page and victim_page["id"], victim=True)
        for victim in (False, True):
            upload = attempt("file", lambda: api.call(
                "POST", f"/v1/spaces/{space}/content/files?name=fuzz-{int(victim)}.txt",
                raw=b"fuzz file\n", content_type="text/plain"))
            keep("fileId", upload and upload["id"], victim=victim)
        change_request = attempt("change request", lambda: api.call(
            "POST", f"/v1/spaces/{space}/change-requests", {"subject": "Fuzz change request"}))
        cr = change_request and change_request["id"]
        keep("changeRequestId", cr)
        for victim in (False, True):
            comment = attempt("comment", lambda: api.call(
                "POST", f"/v1/spaces/{space}/comments", {"body": {"markdown": "A fuzz comment"}}))
            keep("commentId", comment and comment["id"], victim=victim)
        if ids["commentId"]:
            comment_id = ids["commentId"][0]
            for victim in (False, True):
                reply = attempt("reply", lambda: api.call(
                    "POST", f"/v1/spaces/{space}/comments/{comment_id}/replies", {"body": {"markdown": "A reply"}}))
                keep("commentReplyId", reply and reply["id"], victim=victim)
        if cr:  # a change request's comments have dictionaries of their own (cr-commentId, cr-commentReplyId)
            cr_path = f"/v1/spaces/{space}/change-requests/{cr}/comments"
            for victim in (False, True):
                cr_comment = attempt("change-request comment", lambda: api.call(
                    "POST", cr_path, {"body": {"markdown": "On the change request"}}))
                keep("cr-commentId", cr_comment and cr_comment["id"], victim=victim)
            if ids["cr-commentId"]:
                for victim in (False, True):
                    cr_reply = attempt("change-request reply", lambda: api.call(
                        "POST", f"{cr_path}/{ids['cr-commentId'][0]}/replies", {"body": {"markdown": "A reply"}}))
                    keep("cr-commentReplyId", cr_reply and cr_reply["id"], victim=victim)
        translation = attempt("translation", lambda: api.call("POST", f"/v1/orgs/{org}/translations", {
            "language": "fr", "source": {"space": space, "language": "en"}}))
        keep("translationId", translation and translation["id"])
        victim_space = victims["spaceId"][0] if victims["spaceId"] else None
        if victim_space:
            victim_translation = attempt("victim translation", lambda: api.call(
                "POST", f"/v1/orgs/{org}/translations", {
                    "language": "de", "source": {"space": victim_space, "language": "en"}}))
            keep("translationId", victim_translation and victim_translation["id"], victim=True)
        # an import of an address that does not resolve: its run exists (and fails in the worker)
        # (it answers 400 once the fetch has failed; the failed run stays listed)
        attempt("import run", lambda: api.call("POST", f"/v1/spaces/{space}/content/import", {
            "url": "https://fuzz.invalid/page.md", "source": "markdown"}))
        runs = attempt("import runs", lambda: api.call("GET", f"/v1/org/{org}/imports"))
        for run in (runs or {}).get("items", [])[:1]:
            keep("importRunId", run["id"])

        site = attempt("site", lambda: api.call("POST", f"/v1/orgs/{org}/sites", {"title": "Fuzz site"}))
        site_id = site and site["id"]
        keep("siteId", site_id)
        victim_site = attempt("victim site", lambda: api.call(
            "POST", f"/v1/orgs/{org}/sites", {"title": "Fuzz victim site"}))
        keep("siteId", victim_site and victim_site["id"], victim=True)
        if site_id:
            base_path = f"/v1/orgs/{org}/sites/{site_id}"
            for victim in (False, True):
                section = attempt("site section", lambda: api.call(
                    "POST", f"{base_path}/sections", {"spaceId": None, "title": "Fuzz section"}))
                keep("siteSectionId", section and section["id"], victim=victim)
                group = attempt("section group", lambda: api.call(
                    "POST", f"{base_path}/section-groups", {"title": "Fuzz group"}))
                keep("siteSectionGroupId", group and group["id"], victim=victim)
                link = attempt("share link", lambda: api.call(
                    "POST", f"{base_path}/share-links", {"name": "Fuzz link"}))
                keep("shareLinkId", link and link["id"], victim=victim)
            site_spaces = attempt("site spaces", lambda: api.call("GET", f"{base_path}/site-spaces"))
            for item in (site_spaces or {}).get("items", []):
                keep("siteSpaceId", item["id"])
            if len(ids["siteSpaceId"]) > 1:
                victims["siteSpaceId"].append(ids["siteSpaceId"].pop())

    for victim in (False, True):
        name = f"fuzz-{'victim-' if victim else ''}{org.lower().replace('_', '-')}"[:100]
        published = attempt("integration", lambda: api.call("POST", f"/v1/integrations/{name}", {
            "title": "Fuzz integration", "description": "Published by scripts/fuzz.sh", "scopes": [],
            "script": "export default {};", "organization": org, "visibility": "private"}))
        if not published:
            continue
        keep("integrationName", name, victim=victim)
        # an organization installs an integration once: the victim installation is the victim integration's
        installation = attempt("installation", lambda: api.call(
            "POST", f"/v1/integrations/{name}/installations", {"organization": org}))
        installation_id = installation and installation["id"]
        keep("installationId", installation_id, victim=victim)
        if installation_id and not victim:
            where = f"/v1/integrations/{name}/installations/{installation_id}"
            if space:
                attempt("space installation", lambda: api.call("POST", f"{where}/spaces", {"space": space}))
            if ids["siteId"]:
                attempt("site installation", lambda: api.call("POST", f"{where}/sites", {"siteId": ids["siteId"][0]}))
            if space:  # a content change sends the installation an event (recorded as failed: no endpoint)
                attempt("event", lambda: api.call(
                    "POST", f"/v1/spaces/{space}/content/pages", {"title": "Fuzz event page"}))
                events = attempt("events", lambda: api.call("GET", f"/v1/integrations/{name}/events"))
                for event in (events or {}).get("items", [])[:1]:
                    keep("eventId", event["id"])

    # versions appear once the worker has processed the specification: wait a little, not forever
    if ids["specSlug"]:
        for _ in range(20):
            versions = attempt("spec versions", lambda: api.call(
                "GET", f"/v1/orgs/{org}/openapi/{ids['specSlug'][0]}/versions"))
            items = (versions or {}).get("items", [])
            if items:
                keep("versionId", items[0]["id"])
                break
            time.sleep(0.5)

    operations = api.call("GET", "/v1/openapi.json")["paths"]
    write_config(out, ids, victims, operations)
    seeded = {name: len(values) + len(victims.get(name, [])) for name, values in ids.items()}
    for name, values in victims.items():
        seeded.setdefault(name, len(values))
    print(json.dumps({"seeded": seeded, "skipped": skipped}))


def toml_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid TOML basic string


def removes(method: str, path: str, name: str) -> bool:
    """Whether the operation deletes the resource the path parameter `name` names."""
    if method != "delete" or not path.endswith(f"{{{name}}}"):
        return False
    if path == "/v1/orgs/{organizationId}/members/{userId}":
        return True
    # a grant, a team membership, an installation on a space or a site: the resource itself stays
    return not re.search(r"/permissions/|/installations/\{installationId\}/(spaces|sites)/|/members/\{userId\}$", path)


def write_config(out: str, ids: dict[str, list[str]], victims: dict[str, list[str]],
                 operations: dict[str, dict[str, Any]]) -> None:
    def dictionary(name: str, values: list[str]) -> str:
        return f"[dictionaries.{name}]\nvalues = [{', '.join(toml_string(v) for v in values)}]\n"

    def binding(name: str, probability: float) -> str:
        return f'{{ dictionary = "{name}", probability = {probability} }}'

    lines = [
        "# written by scripts/fuzz.py seed: real ids of the organization this run bootstrapped",
        "",
        "[headers]",
        'Authorization = "Bearer ${FUZZ_TOKEN}"',  # schemathesis reads it from the environment
        "",
    ]
    parameters: list[str] = []
    for name, values in sorted(ids.items()):
        lines.append(dictionary(name, values))
        if not name.startswith("cr-"):  # those are bound per operation below
            parameters.append(f'"path.{name}" = {binding(name, PATH_PROBABILITY)}')
    for name, values in sorted(victims.items()):
        lines.append(dictionary(f"victim-{name}", values))
    # ids inside bodies: the references that most creates and moves check
    body_bindings = {
        "body.parent": [*ids.get("collectionId", []), *ids.get("pageId", [])],
        "body.spaceId": ids.get("spaceId", []),
        "body.space": ids.get("spaceId", []),
        "body.siteId": ids.get("siteId", []),
        "body.organization": ids.get("organizationId", []),
        "body.page": ids.get("pageId", []),
        "body.source.space": ids.get("spaceId", []),
    }
    for key, values in body_bindings.items():
        if values:
            name = "body-" + key.removeprefix("body.").replace(".", "-")
            lines.append(dictionary(name, values))
            parameters.append(f'"{key}" = {binding(name, BODY_PROBABILITY)}')
    lines += ["[parameters]", *parameters, ""]
    # Per operation (an [[operations]] entry's filters are alternatives, so each names one operation): a
    # DELETE draws a victim for the resource it removes (not for a grant, a membership or an installation on a
    # space or site it ends), and a change request's comment routes draw that change request's comments.
    for path, item in sorted(operations.items()):
        names = re.findall(r"\{(\w+)\}", path)
        for method in sorted(item):
            if method not in ("get", "put", "post", "patch", "delete"):
                continue
            chosen: dict[str, str] = {}
            for name in names:
                key = f"cr-{name}" if "/change-requests/{changeRequestId}/comments" in path and name in (
                    "commentId", "commentReplyId") else name
                if key in victims and removes(method, path, name):
                    chosen[name] = f"victim-{key}"
                elif key != name and key in ids:
                    chosen[name] = key
            if method == "delete" and names and names[-1] == "installationId" and "integrationName" in victims:
                chosen["integrationName"] = "victim-integrationName"  # the victim installation's integration
            # an import waits up to IMPORT_WAIT_SECONDS (50) for its source, a PDF export up to 25 s: few cases
            slow = path.endswith(("/content/import", "/pdf"))
            if chosen or slow:
                lines += ["[[operations]]", f"include-name = {toml_string(f'{method.upper()} {path}')}"]
                if chosen:
                    pairs = ", ".join(f'"path.{name}" = {binding(d, PATH_PROBABILITY)}' for name, d in chosen.items())
                    lines.append(f"parameters = {{ {pairs} }}")
                if slow:
                    lines.append(f"generation = {{ max-examples = {SLOW_MAX_EXAMPLES} }}")
                lines.append("")
    with open(out, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


# --- summary -------------------------------------------------------------------------------------------


def decode_body(response: dict[str, Any]) -> str:
    content = response.get("content") or {}
    if "$base64" in content:
        return base64.b64decode(content["$base64"]).decode(errors="replace")
    return str(content.get("text", ""))


def summary(report_dir: str, out: str, api_url: str) -> None:
    ndjson_path = sorted(glob.glob(os.path.join(report_dir, "ndjson-*.ndjson")))[-1]
    run: dict[str, Any] = {"operations": {"tested": "?", "total": "?"}, "errors": []}
    try:  # written at the end: an interrupted run has none
        with open(sorted(glob.glob(os.path.join(report_dir, "json-*.json")))[-1], encoding="utf-8") as handle:
            run = json.load(handle)
    except (IndexError, ValueError):
        pass
    requests = 0
    statuses: collections.Counter[int] = collections.Counter()
    server_errors: dict[str, list[str]] = collections.defaultdict(list)
    schema_failures: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    refused: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    other_failures: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    refused_count = 0
    schema_count = 0
    command = ""
    version = ""
    duration = 0.0
    with open(ndjson_path, encoding="utf-8") as handle:
        for line in handle:
            try:
                event = json.loads(line)
            except ValueError:  # the last line of an interrupted run
                continue
            if "Initialize" in event:
                command = event["Initialize"].get("command", "")
                version = event["Initialize"].get("schemathesis_version", "")
            if "EngineFinished" in event:
                duration = event["EngineFinished"].get("running_time", 0.0)
            scenario = event.get("ScenarioFinished")
            if not scenario:
                continue
            recorder = scenario.get("recorder") or {}
            label = recorder.get("label", "?")
            interactions = recorder.get("interactions") or {}
            for interaction in interactions.values():
                response = interaction.get("response")
                if not response:
                    continue
                requests += 1
                status = response["status_code"]
                statuses[status] += 1
                if status >= 500:
                    request = interaction["request"]
                    body = request.get("body") or {}
                    sent = base64.b64decode(body["$base64"]).decode(errors="replace") if "$base64" in body else ""
                    server_errors[label].append(
                        f"{request['method']} {request['uri']} {sent[:300]} -> {status} {decode_body(response)[:300]}")
            for case_id, checks in (recorder.get("checks") or {}).items():
                for check in checks:
                    if check.get("status") != "failure":
                        continue
                    failure = (check.get("failure_info") or {}).get("failure") or {}
                    where = failure.get("operation") or label  # a stateful scenario chains several
                    interaction = interactions.get(case_id) or {}
                    response = interaction.get("response") or {}
                    answer = decode_body(response)
                    if check["name"] == "response_schema_conformance":
                        schema_count += 1
                        schema_failures[where][f"{response.get('status_code')}: {failure.get('title', '')}: "
                                              f"{first_line(failure.get('message', ''))}"] += 1
                    elif check["name"] == "positive_data_acceptance":
                        refused_count += 1
                        refused[where][f"{response.get('status_code')} {error_message(answer)}"] += 1
                    elif check["name"] != "not_a_server_error":
                        other_failures[where][f"{check['name']}: {first_line(failure.get('message', ''))}"] += 1

    five_xx = sum(count for status, count in statuses.items() if status >= 500)
    classes = collections.Counter(f"{status // 100}xx" for status in statuses.elements())
    out_lines = [
        f"# Fuzzing run ({str(run.get('started_at', ''))[:16].replace('T', ' ') or time.strftime('%Y-%m-%d %H:%M')} UTC)",
        "",
        f"schemathesis {version} against {api_url}, {duration:.0f} s. Command (token filtered):",
        "",
        f"```\n{command}\n```",
        "",
        "| Figure | Value |",
        "|---|---|",
        f"| Operations tested | {run['operations']['tested']} of {run['operations']['total']} |",
        f"| Schemathesis errors (its own failures to generate or run a case) | {sum(e.get('count', 1) for e in run.get('errors', []))} |",
        f"| Requests | {requests} |",
        f"| Answers by class | {', '.join(f'{k}: {v}' for k, v in sorted(classes.items()))} |",
        f"| 5xx answers | {five_xx} |",
        f"| Response-schema failures (answers that disagree with the declared schema) | {schema_count} "
        f"in {len(schema_failures)} operations |",
        f"| Schema-valid requests refused (400/405/415/422 to a request the schema allows) | {refused_count} "
        f"in {len(refused)} operations |",
        "",
    ]
    out_lines += section("5xx answers", {k: collections.Counter(v) for k, v in server_errors.items()})
    out_lines += section("Response-schema failures", schema_failures)
    out_lines += section("Schema-valid requests refused", refused)
    out_lines += section("Other check failures", other_failures)
    text = "\n".join(out_lines)
    with open(out, "w", encoding="utf-8") as handle:
        handle.write(text)
    # the figures on stdout; the lists are in the file
    print("\n".join(out_lines[:0] + [line for line in out_lines if line.startswith("| ")]))


def printable(text: str) -> str:
    """Fuzzed text with its control, format, private and unassigned characters written \\u{hex}."""
    return "".join(c if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") else f"\\u{{{ord(c):x}}}"
                   for c in text)


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def error_message(answer: str) -> str:
    try:
        return json.loads(answer)["error"]["message"][:200]
    except (ValueError, KeyError, TypeError):
        return answer[:200]


def section(title: str, rows: dict[str, collections.Counter[str]]) -> list[str]:
    lines = [f"## {title}", ""]
    if not rows:
        return [*lines, "None.", ""]
    for label in sorted(rows):
        lines.append(f"- `{label}`")
        for text, count in rows[label].most_common(8):
            lines.append(f"  - {count} x {printable(text)}")
        if len(rows[label]) > 8:
            lines.append(f"  - … and {len(rows[label]) - 8} other answers")
    return [*lines, ""]


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "seed":
        seed(*sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "summary":
        summary(*sys.argv[2:])
    else:
        sys.exit(__doc__)
