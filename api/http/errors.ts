/**
 * The API's errors as HTTP sees them. The errors themselves (ApiError, its kinds, codes and
 * statuses, the field errors) live in the kernel (`api/kernel/errors.ts`) so that the engine, the
 * metadata, auth and reports raise them without knowing HTTP; the error middleware
 * (`api/http/middleware.ts`) writes them as answers. Re-exported here for the HTTP layer and the
 * modules' route handlers.
 */
export * from '../kernel/errors.ts';
