/**
 * zod with `.openapi()`: every module that declares a schema of the wire imports `z` from here, so the extension is
 * in place whichever module loads first (the API's presenters, or the worker's integration environment).
 */
import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

extendZodWithOpenApi(z);

export { z };
