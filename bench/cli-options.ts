export interface CliOptions {
  only: string[] | undefined;
  iterations: number | undefined;
  warmup: number | undefined;
  out: string;
  list: boolean;
  smoke: boolean;
}

const USAGE =
  "usage: npm run bench -- [--only name[,name...]] [--iterations N] [--warmup N] [--out file] [--list] [--smoke]";

export function parseCliOptions(argv: readonly string[]): CliOptions {
  const options: CliOptions = {
    only: undefined,
    iterations: undefined,
    warmup: undefined,
    out: "bench/results.json",
    list: false,
    smoke: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const [name, inline] = flag.includes("=") ? flag.split(/=(.*)/s, 2) : [flag, undefined];
    const value = () => {
      const next = inline ?? argv[++i];
      if (next === undefined || next === "") throw new Error(`${name} needs a value\n${USAGE}`);
      return next;
    };
    switch (name) {
      case "--only":
        options.only = [
          ...(options.only ?? []),
          ...value()
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        ];
        break;
      case "--iterations":
        options.iterations = positiveInteger(name, value(), 1);
        break;
      case "--warmup":
        options.warmup = positiveInteger(name, value(), 0);
        break;
      case "--out":
        options.out = value();
        break;
      case "--smoke":
        options.smoke = true;
        break;
      case "--list":
        options.list = true;
        break;
      default:
        throw new Error(`unknown option ${flag}\n${USAGE}`);
    }
  }
  return options;
}

function positiveInteger(name: string, raw: string, min: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}
