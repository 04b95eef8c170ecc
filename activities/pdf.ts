/** PDF export activities: thin wrappers over domain/pdf, built from the one set of dependencies. */

import type { JobRef, RenderedFile } from '../domain/jobs/contracts';
import { CollectedPages, collectPdfPages, renderPdfFile, savePdfFile } from '../domain/pdf/steps';
import type { ActivityDeps } from './deps';
import { heartbeating } from './heartbeat';
import { permanentFailures } from './job-activity';

export interface PdfActivities {
  /** Reads the pages the export shows into a manuscript blob; its key travels on, never the pages. */
  collectPdfPages(ref: JobRef): Promise<CollectedPages>;
  /** Renders the manuscript into the PDF's blob, heartbeating per page and image (a cancel stops it at the next). */
  renderPdfFile(ref: JobRef, collected: CollectedPages): Promise<RenderedFile>;
  /** Records the file on the export's row. */
  savePdfFile(ref: JobRef, file: RenderedFile): Promise<void>;
}

export function createPdfActivities(deps: ActivityDeps): PdfActivities {
  return permanentFailures<PdfActivities>({
    collectPdfPages: (ref) => heartbeating((live) => collectPdfPages(deps, ref, live)),
    renderPdfFile: (ref, collected) => heartbeating((live) => renderPdfFile(deps, ref, collected, live)),
    savePdfFile: (ref, file) => savePdfFile(deps, ref, file),
  });
}
