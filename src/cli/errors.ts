// A user-facing CLI failure: printed as `robotstxt: <message>` with exit status 2.
export class CliError extends Error {
  override readonly name = 'CliError';
}
