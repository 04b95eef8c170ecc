/** Schema primitives shared by every route area. */
import { z } from 'zod';

/** An id in a path or body: ours are 20 characters; anything longer is not ours. */
export const resourceId = z.string().min(1).max(64);

export const emailDomain = z.string().min(3).max(253).regex(/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/i);
