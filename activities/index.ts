/** Every activity of the worker, merged from the per-domain factories. */
import type { DataSource } from 'typeorm';
import type { Config } from '../domain/config';
import { createSpaceActivities } from './spaces';

export function createActivities(deps: { ds: DataSource; config: Config }) {
  return { ...createSpaceActivities(deps) };
}
