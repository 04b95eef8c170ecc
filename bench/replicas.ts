/**
 * The replicas benchmark (docs/benchmarks.md, docs/deploy.md "Running N replicas"): two API processes and two
 * workers against one MariaDB and one Temporal, on the benchmark's own task queues and database
 * (docs_bench_replicas, wiped at start). A mixed load goes through both APIs at a fixed rate (`--rate`, 50 requests
 * a second, for `--seconds`, 60): reads, writes, merges, comments, replies and reactions, and job requests of every
 * kind (imports, PDF exports, translations, OpenAPI specifications, spaces deleted and purged, integration events to
 * a tunnel on loopback). During it a token is revoked through one API and must be refused by the other within
 * TOKEN_CACHE_MS, and a worker is killed with SIGKILL in the middle of an import, which must finish on the other.
 * Then one token is driven past its limit through both APIs, and a burst of comments goes past saturation. Once
 * every job ended it checks: no 5xx at the fixed rate, only 503 with Retry-After in the burst and nothing lost,
 * every job ended and succeeded, one Temporal execution per job generation, the counters against the rows and
 * against the answers, each integration event delivered once. Writes bench/results/replicas-<date>.{json,md} and
 * exits 1 when a check fails. Run with `bash scripts/bench.sh replicas [--seconds N] [--rate N]`.
 */
import 'reflect-metadata';
import { randomBytes } from 'crypto';
import { loadavg } from 'os';
import { addMember, createOrg, createUser } from '../test/factories';
import { Tunnel } from '../test/support/integration-tunnel';
import { startWebsite } from '../test/support/website';
import { api, sampleRss, startApiProcess } from './api-process';
import { resetBenchDatabase } from './database';
import { counterMismatches, jobsEnded, workflowsOfQueue } from './replicas-checks';
import { type Answer, atFixedRate, byStatus, Replicas } from './replicas-load';
import { type Member, MixedLoad } from './replicas-mixed';
import { rateLimit, revocation, saturation, workerLoss } from './replicas-phases';
import { renderReplicasReport } from './replicas-report';
import { writeBenchResults } from './results';
import { numberArgument } from './size';
import { summarize } from './stats';
import { startWorkerProcess, type WorkerProcess } from './worker-process';

const SECONDS = numberArgument('--seconds', 60);
const RATE = numberArgument('--rate', 50);
const MEMBERS = 8;
/** pages of the website the load's imports read, and of the slow one the killed worker was importing */
const SITE_PAGES = 20;
const SLOW_SITE_PAGES = 60;
const SLOW_SITE_DELAY_MS = 1000;
const BURST = { comments: 1000, concurrency: 300 };

const log = (message: string): void => void process.stdout.write(`[bench:replicas] ${message}\n`);

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** Counts, latency and statuses of a set of answers, by operation. */
function byOperation(answers: Answer[]) {
  const ops = new Map<string, Answer[]>();
  for (const a of answers) ops.set(a.op, [...(ops.get(a.op) ?? []), a]);
  return Object.fromEntries(
    [...ops].map(([op, list]) => [op, { statuses: byStatus(list), latencyMs: summarize(list.map((a) => a.ms)) }]),
  );
}

async function main(): Promise<void> {
  const { ds, config: base, database, work, machine } = await resetBenchDatabase('docs_bench_replicas', log);
  const taskQueue = `bench-replicas-${randomBytes(4).toString('hex')}`;
  const config = { ...base, temporal: { ...base.temporal, taskQueue } };
  const env = {
    MYSQL_DATABASE: database,
    TEMPORAL_TASK_QUEUE: taskQueue,
    TEMPORAL_HEAVY_TASK_QUEUE: `${taskQueue}-heavy`,
    // the tunnel and the websites are on loopback
    FETCH_ALLOW_LOOPBACK: 'true',
    SPACE_RETENTION_SECONDS: '0',
    // job requests answer at once (202) instead of awaiting the run
    PDF_WAIT_SECONDS: '0',
    IMPORT_WAIT_SECONDS: '0',
    TRANSLATION_PROVIDER: 'pseudo',
    // a killed worker's step is retried elsewhere after 5 s of silence instead of 30
    JOB_HEARTBEAT_TIMEOUT_MS: '5000',
  };
  const tunnel = await new Tunnel().start();
  const receipts: Array<{ eventId: string; at: number }> = [];
  tunnel.onEvent = async (d) => void receipts.push({ eventId: String(d.event.eventId), at: Date.now() });
  const site = await startWebsite({ pages: SITE_PAGES });
  const slowSite = await startWebsite({ pages: SLOW_SITE_PAGES, delayMs: SLOW_SITE_DELAY_MS });

  log(`starting 2 workers on ${taskQueue} and 2 APIs`);
  const workers: WorkerProcess[] = [await startWorkerProcess(env), await startWorkerProcess(env)];
  const apis = [await startApiProcess(env), await startApiProcess(env)];
  const rss = [...apis.map((a) => sampleRss(a.child)), ...workers.map((w) => sampleRss(w.child))];
  const replicas = new Replicas(apis.map((a) => a.base));
  const checks: Check[] = [];
  const check = (name: string, ok: boolean, detail: string) => {
    checks.push({ name, ok, detail });
    log(`${ok ? 'ok  ' : 'FAIL'} ${name}: ${detail}`);
  };
  try {
    const { org, admin } = await createOrg(ds, 'Replicas benchmark');
    const members: Member[] = [{ userId: admin.user.id, token: admin.token }];
    for (let i = 1; i < MEMBERS; i++) {
      const m = await addMember(ds, org, 'admin');
      members.push({ userId: m.user.id, token: m.token });
    }

    // an integration of the organization, installed on all its spaces, its events sent to the tunnel
    const integration = `replicas-${randomBytes(4).toString('hex')}`;
    const setup = async (method: string, url: string, body: unknown, status: number) => {
      const res = await api(apis[0].base, admin.token, method, url, body);
      if (res.status !== status)
        throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.json)}`);
      return res.json;
    };
    await setup(
      'POST',
      `/v1/integrations/${integration}`,
      {
        organization: org.id,
        title: 'Replicas',
        description: 'Receives the events of the replicas benchmark',
        script: 'export default {};',
        scopes: ['space:content:read'],
        visibility: 'unlisted',
      },
      200,
    );
    const installation = await setup(
      'POST',
      `/v1/integrations/${integration}/installations`,
      { organization: org.id },
      201,
    );
    await setup(
      'PATCH',
      `/v1/integrations/${integration}/installations/${installation.id}`,
      { space_selection: 'all' },
      200,
    );
    await setup('PUT', `/v1/integrations/${integration}/dev`, { tunnelUrl: tunnel.url, all: false }, 204);

    const mixed = new MixedLoad(replicas, org.id, members, site.base);
    const jobsOfEachKind = Math.ceil((RATE * SECONDS) / 100 / 5) + 1;
    let t = Date.now();
    await mixed.build(3, 10, jobsOfEachKind);
    log(`content written in ${Date.now() - t} ms`);

    // the load, with the revocation at a fifth of it and the worker loss at a quarter
    const from = replicas.answers.length;
    const revocationUser = await createUser(ds);
    t = Date.now();
    let loadSeconds = 0;
    const later = (fraction: number) => new Promise((r) => setTimeout(r, SECONDS * 1000 * fraction));
    const [launched, revoked, lost] = await Promise.all([
      atFixedRate(RATE, SECONDS, (n) => mixed.send(n)).then((n) => {
        loadSeconds = (Date.now() - t) / 1000;
        return n;
      }),
      later(0.2).then(() =>
        revocation(replicas, { userId: revocationUser.user.id, token: revocationUser.token }, config.tokenCacheMs),
      ),
      later(0.25).then(() => workerLoss(replicas, ds, work.temporal, members[0], org.id, slowSite.base, workers)),
    ]);
    const loadAnswers = replicas.since(from);
    log(
      `${launched} requests launched and answered in ${loadSeconds.toFixed(1)} s, the worker loss over after ${((Date.now() - t) / 1000).toFixed(1)} s; ${JSON.stringify(byStatus(loadAnswers))}`,
    );
    // a worker takes the killed one's place, so the rest runs on two again
    workers[workers.indexOf(lost.killed)] = await startWorkerProcess(env);

    const rateUser = await createUser(ds);
    const limits = await rateLimit(
      replicas,
      rateUser.token,
      config.rateLimits.perToken,
      Math.min(Math.floor(config.rateLimits.perToken / 100), config.rateLimits.maxLease),
    );
    const burst = await saturation(replicas, ds, members, org.id, BURST.comments, BURST.concurrency);

    mixed.expected.openCommentsBySpace.set(burst.spaceId, burst.comments);
    log('waiting for every job to end');
    t = Date.now();
    const jobs = await jobsEnded(ds, 300_000);
    const drainMs = Date.now() - t;
    const workflows = await workflowsOfQueue(work.temporal, taskQueue);
    const counters = await counterMismatches(
      ds,
      org.id,
      mixed.expected,
      mixed.comments.map((c) => c.id),
    );
    const remaining: Array<{ id: string }> = mixed.expected.deletedSpaces.length
      ? await ds.query('SELECT id FROM spaces WHERE id IN (?)', [mixed.expected.deletedSpaces])
      : [];
    const deliveries = new Map<string, number[]>();
    for (const r of receipts) deliveries.set(r.eventId, [...(deliveries.get(r.eventId) ?? []), r.at]);
    const twice = [...deliveries].filter(([, at]) => at.length > 1);
    // delivered before the kill and again after it: at least once, across a lost worker; or retried after an attempt
    // the dispatcher saw fail (a timeout on a busy machine) that the tunnel received all the same: at least once too
    const attempts = new Map<string, number>(
      twice.length
        ? (
            await ds.query('SELECT id, JSON_LENGTH(trace) AS attempts FROM integration_events WHERE id IN (?)', [
              twice.map(([id]) => id),
            ])
          ).map((r: { id: string; attempts: number }) => [r.id, Number(r.attempts)])
        : [],
    );
    const twiceUnexplained = twice.filter(
      ([id, at]) => !(at[0] < lost.killedAt && at.at(-1)! > lost.killedAt) && (attempts.get(id) ?? 0) <= 1,
    );

    const fiveHundreds = loadAnswers.filter((a) => a.status >= 500 || a.status === 0);
    check(
      'no 5xx at the fixed rate',
      fiveHundreds.length === 0,
      `${fiveHundreds.length} of ${loadAnswers.length} answers`,
    );
    // the revocation's 401s are its own check; a merge conflict (409) is an answer to the client, not a fault
    const conflict = (a: Answer) => a.status === 409 && (a.op === 'mergeChangeRequest' || a.op === 'editChangeRequest');
    const clientErrors = loadAnswers.filter(
      (a) => a.status >= 400 && a.status < 500 && a.op !== 'revocation' && !conflict(a),
    );
    check(
      'no 4xx at the fixed rate but conflicts',
      clientErrors.length === 0,
      clientErrors.length ? JSON.stringify(byOperation(clientErrors)) : `${loadAnswers.length} answers`,
    );
    check(
      'rate limit held in total',
      limits.ok,
      `${limits.accepted} 2xx of ${limits.sent + 1} (limit ${limits.limit}, at least ${limits.atLeast}; ${limits.acceptedByReplica.join(' + ')} by replica), ${limits.refused} 429 with Retry-After, other ${JSON.stringify(limits.other)}`,
    );
    check(
      'revocation reached the other replica in time',
      revoked.ok,
      `same replica ${revoked.sameReplicaStatus}; other replica refused from ${revoked.refusedAfterMs} ms, last accepted at ${revoked.lastAcceptedAtMs} ms (cache ${config.tokenCacheMs} ms)`,
    );
    check(
      'killed worker: the import finished on the other',
      lost.ok,
      `worker ${lost.killedPid} killed running ${lost.activity}, ${lost.killedAfterStartMs} ms into the run; ${lost.status} ${lost.finishedAfterKillMs} ms after the kill, ${lost.importedResources}/${lost.totalResources} pages; the run's activities last started on ${[...new Set(lost.activityWorkers)].join(', ')}`,
    );
    const failedJobs = Object.entries(jobs).filter(([, f]) => f.failed.length || f.unfinished.length);
    check(
      'every job ended and succeeded',
      failedJobs.length === 0,
      failedJobs.length
        ? JSON.stringify(
            Object.fromEntries(failedJobs.map(([k, f]) => [k, { failed: f.failed, unfinished: f.unfinished }])),
          )
        : Object.entries(jobs)
            .map(([k, f]) => `${k} ${f.succeeded}`)
            .join(', '),
    );
    check(
      'no job started twice; every workflow completed',
      workflows.startedTwice.length === 0 && workflows.notCompleted.length === 0,
      `${workflows.workflows} workflows, ${workflows.executions} executions; started twice ${JSON.stringify(workflows.startedTwice)}; not completed ${JSON.stringify(workflows.notCompleted)}`,
    );
    check(
      'deleted spaces purged',
      remaining.length === 0,
      `${mixed.expected.deletedSpaces.length} deleted, ${remaining.length} left`,
    );
    const progressShort = Object.values(jobs).flatMap((f) => f.progressShort);
    check('job progress at its total', progressShort.length === 0, JSON.stringify(progressShort));
    check(
      'counters match the rows and the answers',
      counters.mismatches.length === 0,
      counters.mismatches.length
        ? JSON.stringify(counters.mismatches)
        : `${counters.spaces} spaces, ${counters.comments} comments, ${counters.reactions} reactions`,
    );
    const dispatched = jobs['integration-dispatch'];
    const undelivered = dispatched.succeeded - [...deliveries.keys()].length;
    check(
      'integration events delivered once each',
      twiceUnexplained.length === 0 && undelivered <= 0,
      `${deliveries.size} events received for ${dispatched.succeeded} delivered; ${twice.length} twice (${twice.length - twiceUnexplained.length} across the kill or after an attempt that timed out)`,
    );
    check(
      'burst: only 503 with Retry-After, nothing lost',
      burst.ok,
      `${burst.comments} comments at ${burst.concurrency} at once in ${burst.seconds} s: ${JSON.stringify(burst.statuses)}, ${burst.retried} retried; ${burst.notOnce} not stored exactly once; open count ${burst.openCommentsCount}, rows ${burst.rows}`,
    );

    const [api0, api1, worker0, worker1] = rss.map((r) => r.stop().maxMiB);
    const results = {
      date: new Date().toISOString(),
      machine,
      settings: { seconds: SECONDS, rate: RATE, members: MEMBERS, env, burst: BURST },
      load: {
        launched,
        seconds: Math.round(loadSeconds * 10) / 10,
        answers: loadAnswers.length,
        statuses: byStatus(loadAnswers),
        byReplica: replicas.bases.map((_, i) => loadAnswers.filter((a) => a.replica === i).length),
        latencyMs: summarize(loadAnswers.map((a) => a.ms)),
        byOperation: byOperation(loadAnswers),
        jobRequests: mixed.expected.jobRequests,
      },
      revocation: revoked,
      workerLoss: { ...lost, killed: undefined },
      rateLimit: limits,
      saturation: burst,
      jobs: Object.fromEntries(
        Object.entries(jobs).map(([k, f]) => [
          k,
          { rows: f.rows, succeeded: f.succeeded, failed: f.failed.length, unfinished: f.unfinished.length },
        ]),
      ),
      drainMs,
      workflows: { ...workflows },
      counters,
      events: { received: deliveries.size, twice: twice.length },
      requests: replicas.answers.length,
      rssMaxMiB: { api0, api1, worker0, worker1 },
      loadAverageAtEnd: Math.round(loadavg()[0] * 100) / 100,
      checks,
    };
    writeBenchResults('replicas', results, renderReplicasReport(results), log);
    if (checks.some((c) => !c.ok)) process.exitCode = 1;
  } finally {
    for (const a of apis) a.stop();
    await Promise.all(workers.map((w) => w.stop()));
    await tunnel.close();
    await site.close();
    await slowSite.close();
    await work.temporal.close();
    await ds.destroy();
  }
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
