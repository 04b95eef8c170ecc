/** Errors that carry their HTTP meaning (status and a one-line message); anything else is answered as a bare 500. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message = 'a valid bearer token is required') => new AppError(401, message);
export const forbidden = (message = 'you do not have permission to do this') => new AppError(403, message);
export const notFound = (what: string) => new AppError(404, `${what} not found`);
export const conflict = (message: string, details?: Record<string, unknown>) => new AppError(409, message, details);
