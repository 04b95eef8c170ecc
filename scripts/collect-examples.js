#!/usr/bin/env node
// Keeps, for each operation, the best example the test run recorded (test/support/example-recorder.ts) in
// api/openapi/examples.json, which the OpenAPI document shows. Usage, from the repository root:
//   RECORD_EXAMPLES=.data/examples npx jest test/api && node scripts/collect-examples.js .data/examples
// Operations the run did not answer keep the example they had.
const fs = require('fs');
const path = require('path');

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/collect-examples.js <dir of recorded .jsonl files>');
  process.exit(2);
}
const target = path.join(__dirname, '..', 'api', 'openapi', 'examples.json');
const kept = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : {};
const best = new Map();
for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'))) {
  for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const recorded = JSON.parse(line);
    const current = best.get(recorded.operationId);
    if (!current || recorded.score > current.score) best.set(recorded.operationId, recorded);
  }
}
// secrets a test issued are not worth showing as such
const masked = (value) =>
  JSON.parse(
    JSON.stringify(value).replace(/\bdpt_[A-Za-z0-9_-]{43}\b/g, 'dpt_EXAMPLExTOKENxEXAMPLExTOKENxEXAMPLExTOKENx'),
  );
for (const [operationId, recorded] of best) {
  kept[operationId] = masked({
    request: {
      ...(recorded.request.query ? { query: recorded.request.query } : {}),
      ...(recorded.request.body ? { body: recorded.request.body } : {}),
    },
    status: recorded.status,
    ...(recorded.answer !== undefined ? { answer: recorded.answer } : {}),
  });
}
const sorted = Object.fromEntries(
  Object.keys(kept)
    .sort()
    .map((id) => [id, kept[id]]),
);
fs.writeFileSync(target, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(
  `${best.size} operations recorded; ${Object.keys(sorted).length} in ${path.relative(process.cwd(), target)}`,
);
