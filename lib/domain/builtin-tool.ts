/** One of the library's built-ins as /admin/tools shows it, with its switch. */
export interface BuiltinToolRow {
  name: string;
  description: string;
  enabled: boolean;
  /** Works on the server's files, so it runs only with a workspace configured. */
  needsWorkspace: boolean;
  /** Offered to runs now: switched on and, if it needs one, with a workspace. */
  offered: boolean;
}
