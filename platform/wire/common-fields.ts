/** Field schemas that GitBook's objects share, wherever the object is declared. */
import { ROLES } from '../../entities/vocabulary';
import { z } from './zod';

export const roleSchema = z.enum(ROLES);
export const timestamp = z.string().datetime().openapi({ format: 'date-time' });
