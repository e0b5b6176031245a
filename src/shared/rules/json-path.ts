// A value inside a JSON body by a dotted path with [index] steps ('contact.phone', 'data.items[0].phone'):
// the public API's third-party send-text reads the phone there (phone_field), and a webhook may read its
// fields the same way. Own properties only: a path never reaches the prototype ('__proto__', 'constructor').

/** The path's steps (keys and indexes), or null when it is not a valid path. */
export function jsonPathSteps(path: string): (string | number)[] | null {
  if (!path || path.length > 200) return null;
  const steps: (string | number)[] = [];
  // Each step: a key (up to the next '.' or '['), or [n]; keys are separated by dots.
  const token = /([^.[\]]+)|\[(\d{1,6})\]|(\.)/gy;
  let expectKey = true;
  let m: RegExpExecArray | null = token.exec(path);
  let end = 0;
  while (m) {
    end = token.lastIndex;
    if (m[1] !== undefined) {
      if (!expectKey) return null;
      steps.push(m[1]);
      expectKey = false;
    } else if (m[2] !== undefined) {
      if (expectKey && steps.length) return null;
      steps.push(Number(m[2]));
      expectKey = false;
    } else {
      if (expectKey) return null;
      expectKey = true;
    }
    m = token.exec(path);
  }
  if (end !== path.length || expectKey) return null;
  return steps;
}

/** The value at `path` in `body`, or undefined when the path is invalid or leads nowhere. */
export function readJsonPath(body: unknown, path: string): unknown {
  const steps = jsonPathSteps(path);
  if (!steps) return undefined;
  let at: unknown = body;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(at) || step >= at.length) return undefined;
      at = at[step];
    } else {
      if (!at || typeof at !== 'object' || Array.isArray(at) || !Object.hasOwn(at, step)) return undefined;
      at = (at as Record<string, unknown>)[step];
    }
  }
  return at;
}
