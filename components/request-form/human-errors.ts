/** The parts of a validation error (RJSF's, from Ajv) that its wording depends on. */
export interface FormValidationError {
  name?: string;
  message?: string;
  params?: Record<string, unknown>;
  property?: string;
  title?: string;
  stack: string;
}

const FORMATS: Record<string, string> = {
  email: "an email address",
  date: "a date",
  "date-time": "a date and time",
  time: "a time",
  uri: "a web address",
  url: "a web address",
};

/** `.passengers` or `['first-name']` → `passengers` / `first-name`: the field's own name. */
function lastName(property: string | undefined): string | undefined {
  const match = property?.match(/(?:\.([^.[\]]+)|\['([^']+)'\])$/);
  return match ? (match[1] ?? match[2]) : undefined;
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** A person's sentence for one error; the raw validator text only where none is known. */
export function humanMessage(error: FormValidationError): string {
  const params = error.params ?? {};
  const field =
    error.title ??
    (typeof params.missingProperty === "string" ? params.missingProperty : undefined) ??
    lastName(error.property) ??
    "This field";
  const limit = params.limit as number | undefined;
  switch (error.name) {
    case "required":
      return `${field} is required.`;
    case "pattern":
      return typeof params.example === "string"
        ? `${field} is not in the expected form: write it like ${params.example}.`
        : `${field} is not in the expected form.`;
    case "x-minDate":
      return params.relative === "today"
        ? `${field} must be today (${params.limit}) or later.`
        : `${field} must be ${params.limit} or later.`;
    case "format": {
      const format = String(params.format ?? "");
      return `${field} must be ${FORMATS[format] ?? `a valid ${format}`}.`;
    }
    case "maximum":
      return `${field} must be ${limit} or less.`;
    case "minimum":
      return `${field} must be ${limit} or more.`;
    case "exclusiveMaximum":
      return `${field} must be less than ${limit}.`;
    case "exclusiveMinimum":
      return `${field} must be more than ${limit}.`;
    case "minLength":
      return limit === 1
        ? `${field} is required.`
        : `${field} must be at least ${plural(limit ?? 0, "character", "characters")}.`;
    case "maxLength":
      return `${field} must be at most ${plural(limit ?? 0, "character", "characters")}.`;
    case "minItems":
      return `Choose at least ${limit} for ${field}.`;
    case "maxItems":
      return `Choose at most ${limit} for ${field}.`;
    case "uniqueItems":
      return `${field} lists the same choice twice.`;
    case "enum":
    case "const":
      return `${field} must be one of the choices.`;
    case "type": {
      const type = String(params.type ?? "");
      if (type === "integer") return `${field} must be a whole number.`;
      if (type === "number") return `${field} must be a number.`;
      if (type === "boolean") return `${field} must be yes or no.`;
      return `${field} must be ${type === "string" ? "text" : `of type ${type}`}.`;
    }
    default:
      return error.message ? `${field}: ${error.message}` : error.stack;
  }
}

/** For RJSF's `transformErrors`: every error keeps its place and field and gets a sentence. */
export function humanizeErrors<T extends FormValidationError>(errors: T[]): T[] {
  return errors.map((error) => {
    const message = humanMessage(error);
    return { ...error, message, stack: message };
  });
}
