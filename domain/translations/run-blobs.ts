/**
 * The intermediate blobs of a run, under `translations/<translationId>/runs/<generation>/`: the plan
 * (which pages each step translates) and one file per step (the translated pages). They pass between
 * the run's activities by key; the translation row names the run whose blobs are stored
 * (`stagedGeneration`), so a completed run, a deletion or the cleanup removes them.
 */
import type { BlobStore } from '../storage/blob-store';
import type { PageText } from './page-text';

export interface RunPlan {
  /** The source revision the run translates; null for a source without content. */
  sourceRevisionId: string | null;
  /** Page ids each step translates, in order. */
  steps: string[][];
}

export interface StepResult {
  /** Words sent to the provider for these pages. */
  words: number;
  pages: Record<string, PageText>;
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

/** Removes a run's plan and step blobs (those of a plan never written are only the plan's key). */
export async function removeRunBlobs(blobs: BlobStore, translationId: string, generation: number): Promise<void> {
  const plan = await readJsonIfStored<RunPlan>(blobs, planKey(translationId, generation));
  for (let step = 0; step < (plan?.steps.length ?? 0); step++)
    await blobs.delete(stepKey(translationId, generation, step));
  await blobs.delete(planKey(translationId, generation));
}
