/** Where the pdf-export job keeps its blobs: all under `pdf/<exportId>/`, so the export's removal finds them. */

/** What the collect step hands the render step. */
export const manuscriptKey = (exportId: string): string => `pdf/${exportId}/manuscript.json`;

/** The rendered file: a render after a failed one writes the same key. */
export const pdfFileKey = (exportId: string): string => `pdf/${exportId}/export.pdf`;
