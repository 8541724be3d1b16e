// The limits a write's body is held to (server/config/body-limits.ts reads them from the
// environment and checks a route's own; docs/forms.md, "Body limits").

/**
 * The limits a write's body is held to: the host's defaults, or the route's own where its module
 * exports `bodyLimits`.
 */
export interface BodyLimits {
  /** A multipart body, files included: over it, 413 before a byte more is read. */
  maxBytes: number;
  /** A urlencoded form or a JSON document: over it, 413 the same way. */
  maxTextBytes: number;
  /** One file: a larger one reaches the action, marked too large by the host's form parser. */
  maxFileBytes: number;
  maxFiles: number;
  /** Text fields in one form (urlencoded pairs or multipart fields). */
  maxFields: number;
  /** One multipart text field. */
  maxFieldBytes: number;
}
