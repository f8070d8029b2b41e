// A user-facing CLI failure (printed as `robotstxt: <message>`, exit status 2), an engine limit reached (exit 65), and file errors in words.
export class CliError extends Error {
  override readonly name = 'CliError';
}

/**
 * Exit status when a run stops at an engine limit (Wasm memory per engine, URL length):
 * sysexits.h EX_DATAERR, the input was too large for the limits the run was given.
 */
export const EXIT_LIMIT = 65;

/** The engine's limit errors (src/wasm/limits.ts), by name: a worker thread posts only name and message. */
const LIMIT_ERRORS: Readonly<Record<string, string>> = {
  MemoryLimitError: 'raise --max-memory-mb, or lower --chunk-bytes or --max-url-bytes',
  UrlLengthError: 'lower --max-url-bytes to give such lines a marker row instead',
};

/**
 * The one line `robotstxt: …` for an engine limit error (MemoryLimitError, UrlLengthError,
 * from this thread or a worker's message), with what to change; null for any other error.
 * @example limitErrorText({ name: 'MemoryLimitError', message: 'robotstxt-wasm: a batch needs 9 bytes…' }) // 'a batch needs 9 bytes… (raise --max-memory-mb, …)'
 */
export function limitErrorText(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (typeof name !== 'string' || typeof message !== 'string' || !Object.hasOwn(LIMIT_ERRORS, name)) return null;
  // The library prefixes its messages with its name; the CLI's line starts `robotstxt: `.
  const text = message.replace(/^robotstxt-wasm: /, '').split('\n')[0]!;
  return `${text} (${LIMIT_ERRORS[name]})`;
}

/** What a file system error code means, in the words `cat` and `ls` use. */
const FILE_ERROR_WORDS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in system',
  EIO: 'input/output error',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EBADF: 'bad file descriptor',
};

/**
 * A file system error as words for a message, never a bare code (`ENOENT`): the code's
 * meaning when known, else the error's own message.
 * @example fileErrorText(Object.assign(new Error('x'), { code: 'EISDIR' })) // 'is a directory'
 */
export function fileErrorText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code !== undefined && FILE_ERROR_WORDS[code] !== undefined) return FILE_ERROR_WORDS[code];
  return error instanceof Error ? error.message : String(error);
}
