# Helpers of the README's and docs/tour.md's blocks: `source scripts/tour-helpers.sh` from the repository root.

# Prints one field of the JSON on stdin, as a JavaScript expression on it (`id`, `items[0].id`): strings as is,
# anything else as JSON. An error answer, a missing field or text that is not JSON fails with status 1 and prints
# what came instead, so the next call does not run on "undefined".
field() {
  node -e '
    const expression = process.argv[1];
    const text = require("fs").readFileSync(0, "utf8");
    const fail = (why) => { console.error(`field ${expression}: ${why}: ${text.trim().slice(0, 2000)}`); process.exit(1); };
    let json;
    try { json = JSON.parse(text); } catch { fail("the input is not JSON"); }
    if (json && typeof json === "object" && json.error && !(expression.split(/[.[]/)[0] === "error"))
      fail("the call failed");
    let value;
    try { value = new Function("json", `return json.${expression}`)(json); } catch (e) { fail(e.message); }
    if (value === undefined) fail("no such field in");
    console.log(typeof value === "string" ? value : JSON.stringify(value));
  ' "$1"
}

# waitfor <what> <seconds> <command> [args…]: runs the command every 0.2 s until it succeeds; past <seconds>,
# says what it waited for and fails with status 1 rather than looping until killed.
waitfor() {
  local what=$1 seconds=$2
  shift 2
  local deadline=$((SECONDS + seconds))
  until "$@"; do
    if ((SECONDS >= deadline)); then
      echo "waitfor: gave up after ${seconds} s waiting for ${what}" >&2
      return 1
    fi
    sleep 0.2
  done
}
