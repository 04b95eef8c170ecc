/**
 * The intermediate blobs of a run, under `translations/<translationId>/runs/<generation>/`: the plan
 * (which pages each step translates) and one file per step (the translated pages). They pass between
 * the run's activities by key; the translation row names the run whose blobs are stored
 * (`stagedGeneration`), so a completed run, a deletion or the cleanup removes them. A run after a failed
 * one takes over the failed run's finished steps that it would send again (`keepFinishedSteps`).
 */
import type { BlobStore } from '../../platform/storage/blob-store';
import type { PageText } from './page-text';

export interface RunPlan {
  /** The source revision the run translates; null for a source without content. */
  sourceRevisionId: string | null;
  /** Page ids each step translates, in order. */
  steps: string[][];
  /** Per step, the hash of what it sends (its pages' versions, the languages, the instructions); absent in older plans. */
  stepHashes?: string[];
  /**
   * Pages not sent whose version moved on with the same text (an emoji or visibility changed): the apply mirrors
   * them and records the new version, as [page id, version]; absent in older plans.
   */
  restamped?: Array<[string, string]>;
}

export interface StepResult {
  /** Words sent to the provider for these pages. */
  words: number;
  pages: Record<string, PageText>;
  /** Each page's source version, as recorded once the result holds it. */
  versions: Record<string, string>;
  /** The plan's hash of the step, when it has one: the step is done only for a plan with the same hash there. */
  hash?: string;
}

const runFolder = (translationId: string, generation: number) => `translations/${translationId}/runs/${generation}`;
export const planKey = (translationId: string, generation: number) =>
  `${runFolder(translationId, generation)}/plan.json`;
export const stepKey = (translationId: string, generation: number, step: number) =>
  `${runFolder(translationId, generation)}/step-${step}.json`;

export async function readJson<T>(blobs: BlobStore, key: string): Promise<T> {
  return JSON.parse((await blobs.read(key)).toString('utf8')) as T;
}

export async function writeJson(blobs: BlobStore, key: string, value: unknown): Promise<void> {
  await blobs.put(key, Buffer.from(JSON.stringify(value)), 'application/json');
}

/** The stored blob, or null when there is none. */
export async function readJsonIfStored<T>(blobs: BlobStore, key: string): Promise<T | null> {
  try {
    return await readJson<T>(blobs, key);
  } catch {
    return null;
  }
}

/**
 * Copies the finished steps of the failed run `from` that `plan` (run `to`) sends again, found by hash
 * wherever they sit in either plan, so the provider is paid only for what is left.
 */
export async function keepFinishedSteps(
  blobs: BlobStore,
  translationId: string,
  from: number,
  to: number,
  plan: RunPlan,
): Promise<void> {
  const earlier = await readJsonIfStored<RunPlan>(blobs, planKey(translationId, from));
  const at = new Map((earlier?.stepHashes ?? []).map((hash, step) => [hash, step]));
  for (const [step, hash] of (plan.stepHashes ?? []).entries()) {
    const found = at.get(hash);
    if (found === undefined) continue;
    const done = await readJsonIfStored<StepResult>(blobs, stepKey(translationId, from, found));
    if (done?.hash !== hash) continue;
    await writeJson(blobs, stepKey(translationId, to, step), done);
  }
}

/** Removes a run's plan and step blobs (those of a plan never written are only the plan's key). */
export async function removeRunBlobs(blobs: BlobStore, translationId: string, generation: number): Promise<void> {
  const plan = await readJsonIfStored<RunPlan>(blobs, planKey(translationId, generation));
  for (let step = 0; step < (plan?.steps.length ?? 0); step++)
    await blobs.delete(stepKey(translationId, generation, step));
  await blobs.delete(planKey(translationId, generation));
}
