/**
 * Request-side diff of our OpenAPI document against GitBook's, per operation we implement: path
 * parameters, query parameters, body fields and body alternatives (docs/decisions.md, "GitBook request
 * compatibility", records what was decided for each difference).
 *
 *   curl -s $API/v1/openapi.json > /tmp/ours.json
 *   node docs/tooling/gitbook-request-diff.js /tmp/ours.json node_modules/@gitbook/api/spec/openapi.json
 */
const path = require('path');
const [oursFile, theirsFile] = process.argv.slice(2).map((f) => path.resolve(f));
if (!oursFile || !theirsFile)
  throw new Error('usage: gitbook-request-diff.js <our openapi.json> <GitBook openapi.json>');
const ours = require(oursFile);
const theirs = require(theirsFile);
const norm = (p) => p.replace(/\{[^}]+\}/g, '{}');
function resolver(doc) {
  const get = (ref) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o[k], doc);
  const deref = (s, depth = 0) => {
    if (!s || typeof s !== 'object' || depth > 8) return s;
    if (s.$ref) return deref(get(s.$ref), depth + 1);
    if (s.allOf) {
      const parts = s.allOf.map((x) => deref(x, depth + 1));
      const out = { type: 'object', properties: {}, required: [] };
      for (const p of parts) {
        Object.assign(out.properties, p.properties || {});
        out.required.push(...(p.required || []));
        if (p.oneOf) out.oneOf = p.oneOf;
      }
      return out;
    }
    return s;
  };
  return deref;
}
const dOurs = resolver(ours),
  dTheirs = resolver(theirs);
const theirOps = new Map();
for (const [p, ms] of Object.entries(theirs.paths))
  for (const [m, o] of Object.entries(ms))
    if (o.operationId) theirOps.set(`${m} ${norm(`/v1${p}`)}`, { path: p, op: o, shared: ms.parameters || [] });
function summary(s, d) {
  s = d(s);
  if (!s) return '?';
  if (s.oneOf || s.anyOf) return (s.oneOf || s.anyOf).map((x) => summary(x, d)).join(' | ');
  if (s.enum) return `enum(${s.enum.join(',')})`;
  const t = Array.isArray(s.type) ? s.type.join('/') : s.type;
  const extra = [];
  if (s.minLength !== undefined) extra.push(`min${s.minLength}`);
  if (s.maxLength !== undefined) extra.push(`max${s.maxLength}`);
  if (s.minimum !== undefined) extra.push(`>=${s.minimum}`);
  if (s.maximum !== undefined) extra.push(`<=${s.maximum}`);
  if (s.nullable) extra.push('nullable');
  if (t === 'array') return `array<${summary(s.items, d)}>`;
  if (t === 'object' || s.properties) return `object{${Object.keys(s.properties || {}).join(',')}}`;
  return (t || 'any') + (extra.length ? `[${extra.join(' ')}]` : '');
}
function bodyOf(op, d) {
  const c = op.requestBody && d(op.requestBody).content;
  if (!c) return null;
  const s = c['application/json'] ? c['application/json'].schema : Object.values(c)[0].schema;
  return d(s);
}
function objectForms(s, d) {
  // a body schema as a list of object alternatives
  s = d(s);
  if (!s) return [];
  if (s.oneOf || s.anyOf) return (s.oneOf || s.anyOf).flatMap((x) => objectForms(x, d));
  return [s];
}
function compareObject(label, mine, other, out, depth = 0) {
  const mp = mine.properties || {},
    tp = other.properties || {};
  const mreq = new Set(mine.required || []),
    treq = new Set(other.required || []);
  for (const k of Object.keys(tp)) {
    if (!(k in mp)) {
      out.push(`${label}${k}: GitBook field missing here (${summary(tp[k], dTheirs)})`);
      continue;
    }
    const a = summary(mp[k], dOurs),
      b = summary(tp[k], dTheirs);
    if (a !== b) out.push(`${label}${k}: ours ${a} / GitBook ${b}`);
    const mo = dOurs(mp[k]),
      to = dTheirs(tp[k]);
    if (depth < 3 && mo && to && (mo.properties || to.properties) && !to.oneOf && !mo.oneOf)
      compareObject(`${label}${k}.`, mo, to, out, depth + 1);
    if (depth < 3 && mo && to && (to.oneOf || mo.oneOf || mo.anyOf)) {
      const fm = objectForms(mo, dOurs),
        ft = objectForms(to, dTheirs);
      if (fm.length !== ft.length) out.push(`${label}${k}: ${fm.length} alternatives here, ${ft.length} in GitBook`);
    }
  }
  for (const k of Object.keys(mp)) if (!(k in tp) && depth === 0) out.push(`${label}${k}: ours only`);
  for (const k of mreq) if (!treq.has(k) && k in tp) out.push(`${label}${k}: required here, optional in GitBook`);
  for (const k of treq) if (!mreq.has(k) && k in mp) out.push(`${label}${k}: optional here, required in GitBook`);
}
for (const [p, ms] of Object.entries(ours.paths)) {
  for (const [m, o] of Object.entries(ms)) {
    const key = `${m} ${norm(p)}`;
    const t = theirOps.get(key);
    const out = [];
    if (!t) {
      console.log(`\n## ${m.toUpperCase()} ${p} (${o.operationId}): not in GitBook`);
      continue;
    }
    const pr = (x, d) => d(x);
    const tparams = [...t.shared, ...(t.op.parameters || [])].map((x) => pr(x, dTheirs));
    const oparams = (o.parameters || []).map((x) => pr(x, dOurs));
    const tPath = tparams.filter((x) => x.in === 'path').map((x) => x.name),
      oPath = oparams.filter((x) => x.in === 'path').map((x) => x.name);
    if (tPath.join() !== oPath.join()) out.push(`path params: ours ${oPath} / GitBook ${tPath}`);
    const tq = new Map(tparams.filter((x) => x.in === 'query').map((x) => [x.name, x]));
    const oq = new Map(oparams.filter((x) => x.in === 'query').map((x) => [x.name, x]));
    for (const [n, x] of tq) {
      if (!oq.has(n)) out.push(`query ${n}: GitBook parameter missing here (${summary(x.schema, dTheirs)})`);
      else {
        const a = summary(oq.get(n).schema, dOurs),
          b = summary(x.schema, dTheirs);
        if (a !== b) out.push(`query ${n}: ours ${a} / GitBook ${b}`);
      }
    }
    for (const n of oq.keys()) if (!tq.has(n)) out.push(`query ${n}: ours only`);
    const tb = bodyOf(t.op, dTheirs),
      ob = bodyOf(o, dOurs);
    if (tb && !ob) out.push('body: GitBook has one, ours none');
    if (ob && !tb) out.push('body: ours only');
    if (tb && ob) {
      const ft = objectForms(tb, dTheirs),
        fo = objectForms(ob, dOurs);
      if (ft.length !== fo.length) out.push(`body: ${fo.length} alternatives here, ${ft.length} in GitBook`);
      if (ft.length === 1 && fo.length === 1) compareObject('body.', fo[0], ft[0], out);
      else for (const [i, f] of ft.entries()) out.push(`body alt ${i}: GitBook ${summary(f, dTheirs)}`);
      if (t.op.requestBody.required && !o.requestBody?.required) out.push('body: required in GitBook, optional here');
    }
    console.log(`\n## ${m.toUpperCase()} ${p} (${o.operationId} / ${t.op.operationId})`);
    for (const l of out) console.log(`- ${l}`);
  }
}
