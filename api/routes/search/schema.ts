import { z } from 'zod';
import { paginationQuery } from '../../query';

export const SEARCH_QUERY_MAX = 512;

export const searchQuery = {
  query: z.string().trim().min(1).max(SEARCH_QUERY_MAX).openapi({ description: 'the words to find' }),
  ...paginationQuery,
};
