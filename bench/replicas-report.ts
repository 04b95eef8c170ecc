/** The replicas benchmark's report (bench/results/replicas-<date>.md): its checks, then the figures behind them. */
import type { Summary } from './stats';

interface ReplicasResults {
  date: string;
  machine: Record<string, string | number>;
  settings: { seconds: number; rate: number; members: number; burst: { comments: number; concurrency: number } };
  load: {
    launched: number;
    seconds: number;
    answers: number;
    statuses: Record<string, number>;
    byReplica: number[];
    latencyMs: Summary;
    byOperation: Record<string, { statuses: Record<string, number>; latencyMs: Summary }>;
    jobRequests: Record<string, number>;
  };
  jobs: Record<string, { rows: number; succeeded: number; failed: number; unfinished: number }>;
  drainMs: number;
  workflows: { workflows: number; executions: number; byType: Record<string, number> };
  requests: number;
  rssMaxMiB: Record<string, number>;
  loadAverageAtEnd: number;
  checks: Array<{ name: string; ok: boolean; detail: string }>;
}

const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');

export function renderReplicasReport(r: ReplicasResults): string {
  const failed = r.checks.filter((c) => !c.ok).length;
  return [
    `# Replicas benchmark, ${r.date.slice(0, 10)}`,
    '',
    `Machine: ${Object.entries(r.machine)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; load average at the end ${r.loadAverageAtEnd}.`,
    '',
    `Two API processes and two workers on one MariaDB and one Temporal; ${r.settings.members} members of one organization send a mixed load through both APIs at ${r.settings.rate} requests a second for ${r.settings.seconds} s. ${r.requests} requests in all (set-up, load, checks and burst).`,
    '',
    `**${failed ? `${failed} check(s) failed` : 'Every check held'}.**`,
    '',
    '| Check | Held | Figures |',
    '|---|---|---|',
    ...r.checks.map((c) => `| ${c.name} | ${c.ok ? 'yes' : '**no**'} | ${c.detail.replace(/\|/g, '\\|')} |`),
    '',
    `## The load`,
    '',
    `${r.load.launched} requests launched in ${r.load.seconds} s (${(r.load.answers / r.load.seconds).toFixed(1)} a second answered), ${r.load.byReplica.join(' and ')} by replica; ${statuses(r.load.statuses)}. Latency p50 ${r.load.latencyMs.median} ms, p99 ${r.load.latencyMs.p99} ms, max ${r.load.latencyMs.max} ms. Job requests: ${statuses(r.load.jobRequests)}.`,
    '',
    '| Operation | Answers | p50 ms | p99 ms |',
    '|---|---|---|---|',
    ...Object.entries(r.load.byOperation).map(
      ([op, o]) => `| ${op} | ${statuses(o.statuses)} | ${o.latencyMs.median} | ${o.latencyMs.p99} |`,
    ),
    '',
    `## Jobs`,
    '',
    `Every job ended ${Math.round(r.drainMs / 100) / 10} s after the burst. ${r.workflows.workflows} workflows, ${r.workflows.executions} executions (${statuses(r.workflows.byType)}).`,
    '',
    '| Kind | Rows | Succeeded | Failed | Unfinished |',
    '|---|---|---|---|---|',
    ...Object.entries(r.jobs).map(([k, j]) => `| ${k} | ${j.rows} | ${j.succeeded} | ${j.failed} | ${j.unfinished} |`),
    '',
    `Peak RSS: ${statuses(r.rssMaxMiB)} MiB (a worker started after the kill is not sampled).`,
    '',
  ].join('\n');
}
