import { paginationQuery } from '../../query';
import { text } from '../../schemas';

export const SEARCH_QUERY_MAX = 512;

export const searchQuery = {
  query: text({ min: 1, max: SEARCH_QUERY_MAX, trim: true, characters: 'any' }).openapi({
    description: 'the words to find',
  }),
  ...paginationQuery,
};
