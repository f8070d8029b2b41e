// A user-facing CLI failure (printed as `robotstxt: <message>`, exit status 2), and file errors in words.
export class CliError extends Error {
  override readonly name = 'CliError';
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
