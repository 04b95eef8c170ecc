/**
 * The lists a job kind must be in (the job kinds, the workflow bundle, the activities, the history
 * recorders, and through them the replay list) all come from the contracts' JOB_KIND_NAMES and the Schedules; a kind
 * in one and not the others fails here (and most at compile time: each list is a record keyed by its names).
 */
import { KIND_ACTIVITIES } from '../../activities';
import { JOB_KIND_NAMES, type WorkflowContracts, type WorkflowName } from '../../domain/jobs/contracts';
import { JOB_KINDS } from '../../domain/jobs/kinds';
import { SCHEDULES } from '../../domain/jobs/schedules';
import * as workflows from '../../workflows';
import { JOB_RECORDERS, SCHEDULE_RECORDERS } from '../replay/recorders';

/** The bundle as its contracts say: a missing workflow or a signature that differs does not compile. */
const bundle: {
  [N in WorkflowName]: (...args: WorkflowContracts[N]['args']) => Promise<WorkflowContracts[N]['result']>;
} = workflows;

const sorted = (values: Iterable<string>) => [...values].sort();

describe('the job lists agree', () => {
  it('the job kinds are the contracts’, each with its workflow and name', () => {
    expect(sorted(JOB_KINDS.map((kind) => `${kind.workflow} ${kind.name}`))).toEqual(
      sorted(Object.entries(JOB_KIND_NAMES).map(([workflow, name]) => `${workflow} ${name}`)),
    );
  });

  it('the workflow bundle exports the kinds’ and the Schedules’ workflows, and nothing else', () => {
    expect(sorted(Object.keys(bundle))).toEqual(
      sorted([...Object.keys(JOB_KIND_NAMES), ...SCHEDULES.map((schedule) => schedule.workflow)]),
    );
  });

  it('every kind has its activities', () => {
    expect(sorted(Object.keys(KIND_ACTIVITIES))).toEqual(sorted(Object.keys(JOB_KIND_NAMES)));
  });

  it('every kind and every Schedule has a history recorder (the replay test derives what to replay from them)', () => {
    expect(sorted(Object.entries(JOB_RECORDERS).map(([name, entry]) => `${entry.workflow} ${name}`))).toEqual(
      sorted(Object.entries(JOB_KIND_NAMES).map(([workflow, name]) => `${workflow} ${name}`)),
    );
    expect(sorted(Object.entries(SCHEDULE_RECORDERS).map(([name, entry]) => `${entry.workflow} ${name}`))).toEqual(
      sorted(SCHEDULES.map((schedule) => `${schedule.workflow} ${schedule.name}`)),
    );
  });
});
