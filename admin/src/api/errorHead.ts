/** Spec §8: the default error — code -201, message "System error", empty description. */
export const SYSTEM_ERROR_CODE = -201;

export interface ErrorHead {
  /** the notification's title: "message (code)", or the message alone when the API gave no code */
  title: string;
  code: number | undefined;
  description: string | undefined;
}

/**
 * The title of an error notification from what the API answered: its own `{code, message,
 * description}`, or — when the answer is not one (a proxy's HTML 502, a bare "Internal Server
 * Error", an empty body) — the spec's default error, "System error (-201)" with no description,
 * never the HTTP status text.
 */
export function errorHead(body: { code?: unknown; message?: unknown; description?: unknown }, systemMessage: string): ErrorHead {
  if (typeof body.message === 'string' && body.message) {
    const code = typeof body.code === 'number' ? body.code : undefined;
    return {
      title: code === undefined ? body.message : `${body.message} (${code})`,
      code,
      description: typeof body.description === 'string' ? body.description : undefined,
    };
  }
  return { title: `${systemMessage} (${SYSTEM_ERROR_CODE})`, code: SYSTEM_ERROR_CODE, description: undefined };
}
