// A long test-runner log with one failing test in the middle, as the runner prints it: used by the
// tests and by scripts/bench/run-bench.mjs. Plain JavaScript so the benchmark can import it.

const encoder = new TextEncoder();

/** Lines of one failure, as each runner prints it where it happens (verbose/inline reporters). */
export const FAILING_TEST_LINES = {
  vitest: [
    '   × src/cart.test.ts > cart > computes the total 6ms',
    '     → expected 3 to be 4 // Object.is equality',
  ],
  pytest: ['tests/test_cart.py::test_checkout_total FAILED                          [ 50%]'],
  go: ['=== RUN   TestCheckoutTotal', '    cart_test.go:42: Total() = 3, want 4', '--- FAIL: TestCheckoutTotal (0.00s)'],
};

/** The report of that failure each runner prints at the end, before its summary. */
export const FAILURE_REPORTS = {
  vitest: [
    '',
    '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
    '',
    ' FAIL  src/cart.test.ts > cart > computes the total',
    'AssertionError: expected 3 to be 4 // Object.is equality',
    '',
    '- Expected',
    '+ Received',
    '',
    '- 4',
    '+ 3',
    '',
    ' ❯ src/cart.test.ts:42:25',
    '     40|     const cart = new Cart();',
    "     41|     cart.add({ name: 'apple', price: 3 });",
    '     42|     expect(cart.total()).toBe(4);',
    '       |                         ^',
    '     43|   });',
    '',
    '⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯',
    '',
  ],
  pytest: [
    '',
    '=================================== FAILURES ===================================',
    '_____________________________ test_checkout_total ______________________________',
    '',
    '    def test_checkout_total():',
    '        cart = Cart()',
    '        cart.add(Item("apple", 3))',
    '>       assert cart.total() == 4',
    'E       assert 3 == 4',
    'E        +  where 3 = <bound method Cart.total of <shop.cart.Cart object at 0x7f3a2c>>()',
    '',
    'tests/test_cart.py:42: AssertionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_cart.py::test_checkout_total - assert 3 == 4',
  ],
};

/** What each runner prints at the end after such a run. */
const ENDINGS = {
  vitest: (passed) => [
    ...FAILURE_REPORTS.vitest,
    ` Test Files  1 failed | ${Math.ceil(passed / 40)} passed (${Math.ceil(passed / 40) + 1})`,
    `      Tests  1 failed | ${passed} passed (${passed + 1})`,
    '   Start at  10:12:03',
    '   Duration  41.24s (transform 2.10s, setup 0ms, collect 3.80s, tests 30.44s, environment 1ms, prepare 310ms)',
    '',
  ],
  pytest: (passed) => [...FAILURE_REPORTS.pytest, `======================= 1 failed, ${passed} passed in 41.31s ========================`],
  go: () => ['FAIL', 'FAIL\texample.com/shop/cart\t41.305s', 'FAIL'],
};

const HEADS = {
  vitest: ['', ' RUN  v4.1.12 /home/dev/shop', ''],
  pytest: [
    '============================= test session starts ==============================',
    'platform linux -- Python 3.12.3, pytest-8.2.0, pluggy-1.5.0 -- /usr/bin/python3',
    'rootdir: /home/dev/shop',
    'collecting ... collected 150000 items',
    '',
  ],
  go: [],
};

const AREAS = ['cart', 'catalog', 'money', 'orders', 'search', 'users', 'payments', 'shipping'];

/** One passing test's line(s). */
function passing(kind, n) {
  const area = AREAS[n % AREAS.length];
  const name = `handles case ${n} of ${area} with error recovery`;
  if (kind === 'vitest') return [`   ✓ src/${area}.test.ts > ${area} > ${name} ${n % 17}ms`];
  if (kind === 'pytest') return [`tests/test_${area}.py::test_${area}_case_${n} PASSED${' '.repeat(20)}[ ${String(Math.floor((n * 7) % 100)).padStart(2)}%]`];
  const test = `Test${area[0].toUpperCase()}${area.slice(1)}Case${n}`;
  return [`=== RUN   ${test}`, `--- PASS: ${test} (0.00s)`];
}

/**
 * A `kind` log of about `bytes` bytes (UTF-8): passing tests, the failing test's lines in the
 * middle, then the runner's ending. Returns the text and the lines that must survive a reduction.
 */
export function makeTestLog(kind, bytes) {
  const ending = ENDINGS[kind];
  const failure = FAILING_TEST_LINES[kind];
  const lines = [...HEADS[kind]];
  let size = lines.reduce((sum, line) => sum + encoder.encode(line).length + 1, 0);
  const endingSize = ending(0).reduce((sum, line) => sum + encoder.encode(line).length + 12, 0);
  const failureSize = failure.reduce((sum, line) => sum + encoder.encode(line).length + 1, 0);
  const target = bytes - endingSize - failureSize;
  let n = 0;
  let failed = false;
  while (size < target) {
    if (!failed && size >= target / 2) {
      lines.push(...failure);
      size += failureSize;
      failed = true;
    }
    for (const line of passing(kind, n)) {
      lines.push(line);
      size += encoder.encode(line).length + 1;
    }
    n += 1;
  }
  if (!failed) lines.push(...failure);
  const end = ending(n);
  lines.push(...end);
  const progress = /^=== RUN/;
  return {
    text: `${lines.join('\n')}\n`,
    failingLines: [...failure.filter((line) => !progress.test(line)), ...end.filter((line) => /FAIL|Error|assert|Expected|Received|failed|❯/.test(line))],
  };
}
