// A route module's middleware list run as one of React Router's middleware functions, on either
// side: each gets `next()` for what follows it; one that returns nothing gets what next()
// answered, and one that never calls next() is followed by the rest (React Router's rule).

type Next<Result> = () => Promise<Result>;
type Middleware<Args, Result> = (args: Args, next: Next<Result>) => unknown;

export function runChain<Args, Result>(chain: readonly Middleware<Args, Result>[], args: Args, next: Next<Result>): Promise<Result> {
  const run = async (i: number): Promise<Result> => {
    if (i === chain.length) return next();
    let following: Promise<Result> | undefined;
    const value = (await chain[i]!(args, () => (following ??= run(i + 1)))) as Result | undefined;
    // What follows runs once at most: a middleware that caught what next() threw and returned
    // nothing gets that error again, never a second run of the routes' handlers.
    return value ?? (await (following ?? run(i + 1)));
  };
  return run(0);
}
