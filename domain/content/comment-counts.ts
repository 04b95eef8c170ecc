/** How many open comments each change request has, for a whole page of change requests at once (one grouped COUNT). */
export { openChangeRequestCommentCounts as changeRequestCommentCounts } from '../comments/counts';
