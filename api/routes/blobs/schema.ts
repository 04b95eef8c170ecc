import { z } from 'zod';

export const blobDownloadParams = {
  key: z.string().openapi({ description: 'blob key; may contain slashes' }),
};

/** What LocalBlobStore.downloadUrl signs: the signature covers the key and every other field. */
export const blobDownloadQuery = {
  filename: z.string().openapi({ description: 'file name for Content-Disposition' }),
  contentType: z.string().openapi({ description: 'media type to answer with' }),
  expires: z
    .string()
    .regex(/^\d+$/)
    .transform(Number)
    .openapi({ type: 'integer', minimum: 0, description: 'expiry, seconds since the Unix epoch' }),
  signature: z.string().openapi({
    description:
      'HMAC-SHA256 (base64url) over the key and the fields above, made with the service secret: the credential',
  }),
};
