import { z } from 'zod';
import { LINK_STATUSES } from '../../presenters/link';
import { paginationQuery } from '../../query';

export const listLinksQuery = {
  ...paginationQuery,
  status: z
    .enum(LINK_STATUSES)
    .optional()
    .openapi({ description: 'only links of this status; `stats` still count every link' }),
};

export const listBacklinksQuery = { ...paginationQuery };
