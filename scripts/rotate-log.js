#!/usr/bin/env node
// Writes its standard input to a log file that rotates by size, as logrotate does: FILE, FILE.1 … FILE.KEEP
// (rotating-file-stream, docs/decisions.md). start.sh pipes the API's and the worker's output through it, so
// the services themselves only write JSON lines to stdout, as they do in a container.
// Usage: node scripts/rotate-log.js FILE MAX_MB KEEP
const { Transform } = require('node:stream');
const { createStream } = require('rotating-file-stream');

const [file, maxMb, keep] = process.argv.slice(2);
if (!file || !(Number(maxMb) >= 1) || !(Number(keep) >= 1)) {
  process.stderr.write('usage: rotate-log.js FILE MAX_MB KEEP (MAX_MB, KEEP: whole numbers of at least 1)\n');
  process.exit(2);
}

// whole lines only, so a rotation never cuts a JSON line in two
let partial = '';
const lines = new Transform({
  transform(chunk, _encoding, done) {
    const text = partial + chunk.toString('utf8');
    const end = text.lastIndexOf('\n') + 1;
    partial = text.slice(end);
    done(null, end > 0 ? text.slice(0, end) : undefined);
  },
  flush(done) {
    done(null, partial || undefined);
  },
});

const out = createStream(file, { size: `${Math.floor(Number(maxMb))}M`, rotate: Math.floor(Number(keep)) });
out.on('error', (err) => {
  process.stderr.write(`rotate-log: ${file}: ${err.message}\n`);
  process.exit(1);
});
// the service it logs for stops it: its output ends (EOF) once it exited; a Ctrl-C of start.sh must not
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
process.stdin.pipe(lines).pipe(out);
