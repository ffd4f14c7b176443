import { describe, expect, it } from 'vitest';
import { buildWindowsSpawn, quoteWindowsArgument } from './windows-command.js';

describe('buildWindowsSpawn', () => {
  it('spawns an .exe directly, arguments untouched', () => {
    expect(buildWindowsSpawn('C:\\tools\\codex.exe', ['exec', '--json', 'a b'])).toEqual({
      command: 'C:\\tools\\codex.exe',
      args: ['exec', '--json', 'a b'],
      windowsVerbatimArguments: false,
    });
  });

  it('runs an npm .cmd shim through cmd.exe /d /s /c with the whole line quoted, verbatim', () => {
    const target = buildWindowsSpawn('C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd', ['-p', '--output-format', 'json'], 'C:\\Windows\\system32\\cmd.exe');
    expect(target.command).toBe('C:\\Windows\\system32\\cmd.exe');
    expect(target.windowsVerbatimArguments).toBe(true);
    expect(target.args.slice(0, 3)).toEqual(['/d', '/s', '/c']);
    expect(target.args[3]).toBe(
      '"C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd ^^^"-p^^^" ^^^"--output-format^^^" ^^^"json^^^""',
    );
  });

  it('falls back to cmd.exe without ComSpec and treats .CMD and .bat case-insensitively', () => {
    expect(buildWindowsSpawn('C:\\x\\GEMINI.CMD', []).command).toBe('cmd.exe');
    const bat = buildWindowsSpawn('C:\\x\\run.bat', ['a&b']);
    expect(bat.args[3]).toBe('"C:\\x\\run.bat ^"a^&b^""');
  });

  it('escapes a path with spaces and parentheses', () => {
    const target = buildWindowsSpawn('C:\\Program Files (x86)\\npm\\opencode.cmd', ['run']);
    expect(target.args[3]).toBe('"C:\\Program^ Files^ ^(x86^)\\npm\\opencode.cmd ^^^"run^^^""');
  });
});

describe('quoteWindowsArgument', () => {
  it.each([
    ['plain', '^"plain^"'],
    ['two words', '^"two^ words^"'],
    ['say "hi"', '^"say^ \\^"hi\\^"^"'],
    ['C:\\dir\\', '^"C:\\dir\\\\^"'],
    ['a\\"b', '^"a\\\\\\^"b^"'],
    ['%PATH%', '^"^%PATH^%^"'],
    ['x & del /q *', '^"x^ ^&^ del^ /q^ ^*^"'],
    ['a|b<c>d^e!f', '^"a^|b^<c^>d^^e^!f^"'],
    ['', '^"^"'],
  ])('quotes %j for the C runtime and escapes every cmd.exe metacharacter', (argument, expected) => {
    expect(quoteWindowsArgument(argument, false)).toBe(expected);
  });

  it('escapes twice for a shim, so the second parse still sees one literal argument', () => {
    expect(quoteWindowsArgument('a&b', true)).toBe('^^^"a^^^&b^^^"');
  });

  it('leaves no unescaped metacharacter for any argument', () => {
    const hostile = ['"&calc"', '^', '%USERPROFILE%', '!x!', '`id`', 'a;b,c', '(x)', '[y]', 'line\\', '\\\\"'];
    for (const argument of hostile) {
      const escaped = quoteWindowsArgument(argument, false);
      // Every metacharacter is preceded by an odd run of carets.
      const unescaped = escaped.replace(/\^./g, '').match(/[()\][%!^"`<>&|;, *?]/);
      expect(unescaped, `${argument} -> ${escaped}`).toBeNull();
    }
  });
});
