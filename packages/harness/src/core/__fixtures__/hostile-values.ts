/** Names every object inherits from `Object.prototype`: ids and names a lookup must not trust. */
export const inheritedNames = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'isPrototypeOf'];

/** An object whose enumerable `key` getter throws. */
export function throwingGetter(key: string): Record<string, unknown> {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw new Error(`${key} getter`);
    },
  }) as Record<string, unknown>;
}

/** A Proxy whose every trap that matters throws. */
export function throwingProxy(): object {
  const fail = () => {
    throw new Error('trap');
  };
  return new Proxy({}, { get: fail, getPrototypeOf: fail, has: fail, ownKeys: fail, getOwnPropertyDescriptor: fail });
}

/** A Proxy that was revoked: any operation on it throws a TypeError. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

/** An Error whose `message` getter throws. */
export function errorWithThrowingMessage(): Error {
  const error = new Error('hidden');
  Object.defineProperty(error, 'message', {
    get() {
      throw new Error('message getter');
    },
  });
  return error;
}

/** A value nested `levels` deep: `{ deep: { deep: … } }`. */
export function deeplyNested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < levels; level += 1) value = { deep: value };
  return value;
}

/** An object that contains itself. */
export function cyclic(): Record<string, unknown> {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
}

/** Values that are awkward to throw, each labelled; a fresh value per call. */
export function hostileThrowables(): [label: string, make: () => unknown][] {
  return [
    ['an Error whose message getter throws', errorWithThrowingMessage],
    ['a Proxy whose traps throw', throwingProxy],
    ['a revoked Proxy', revokedProxy],
    ['null', () => null],
    ['undefined', () => undefined],
    ['a symbol', () => Symbol('odd')],
    ['a BigInt', () => 10n],
    ['a number', () => 42],
    ['a function', () => () => 'thrown function'],
    [
      'an object with a throwing toString',
      () => ({
        toString() {
          throw new Error('toString');
        },
      }),
    ],
  ];
}

/** Values that are not plain JSON data, each labelled; a fresh value per call. */
export function hostileValues(): [label: string, make: () => unknown][] {
  return [
    ['an object with a throwing getter', () => throwingGetter('text')],
    ['a Proxy whose traps throw', throwingProxy],
    ['a revoked Proxy', revokedProxy],
    ['a BigInt member', () => ({ big: 1n })],
    ['a cycle', cyclic],
    ['5,000 levels of nesting', () => deeplyNested(5_000)],
    ['a function member', () => ({ fn: () => 1 })],
    ['a NaN member', () => ({ n: Number.NaN })],
  ];
}
