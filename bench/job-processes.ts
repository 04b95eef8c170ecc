/**
 * What every job benchmark runs beside itself: the worker and the API, each a child process whose RSS is sampled, and
 * a Temporal gateway to read the job's workflow history; `stop()` ends them all.
 */
import type { Config } from '../platform/config';
import { TemporalGateway } from '../platform/temporal/gateway';
import { sampleRss, startApiProcess } from './api-process';
import { startWorkerProcess } from './worker-process';

export async function startJobProcesses(config: Config, env: Record<string, string>) {
  const worker = await startWorkerProcess(env);
  const workerRss = sampleRss(worker.child);
  const apiProcess = await startApiProcess(env);
  const apiRss = sampleRss(apiProcess.child);
  const temporal = new TemporalGateway(config);
  return {
    apiBase: apiProcess.base,
    workerRss,
    apiRss,
    temporal,
    /**
     * The events of each run of `workflowId`, the first run first: a workflow that continued as new has a history
     * per run.
     */
    async historyEventsPerRun(workflowId: string): Promise<number[]> {
      const client = await temporal.getClient();
      const runs: number[] = [];
      for (let runId: string | undefined; ; ) {
        const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
        runs.unshift(history.events?.length ?? 0);
        runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
        if (!runId) return runs;
      }
    },
    async stop(): Promise<void> {
      workerRss.stop();
      apiRss.stop();
      apiProcess.stop();
      await worker.stop();
      await temporal.close();
    },
  };
}
