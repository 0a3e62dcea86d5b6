import { describe, expect, it } from 'vitest';
import { asciiOnly } from '../scripts/ascii-chunks.mjs';

// The built chunks are made ASCII so that V8 keeps their source one byte a character (decision 0089):
// the escaped module must mean exactly what the original meant.
const run = (code: string) => new Function(`${code}; return out;`)() as unknown;

describe('ascii chunks', () => {
  it('keeps the meaning of strings, templates, regular expressions (u flag too), identifiers and comments', () => {
    const code = [
      '// a comment with 中文 and 💥',
      'const 名 = "开始";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the code under test holds a template
      'const t = `按钮 ${名} 💥`;',
      'const r = /^(按钮|血条)$/;',
      'const u = /^[💥🔥]+$/u;',
      'const out = [名, t, r.test("血条"), r.test("x"), u.test("🔥💥"), u.test("💥x"), "💥".length];',
    ].join('\n');
    const escaped = asciiOnly(code);
    expect(escaped).not.toMatch(/[\u0080-\uffff]/);
    expect(run(escaped)).toEqual(run(code));
    expect(run(escaped)).toEqual(['开始', '按钮 开始 💥', true, false, true, false, 2]);
  });

  it('leaves ASCII code as it is', () => {
    const code = 'const out = /a\\d/.test("a1");';
    expect(asciiOnly(code)).toBe(code);
  });

  it('refuses to build where an escape would change the meaning', () => {
    expect(() => asciiOnly('const out = /\\中/.test("中");')).toThrow(/after a backslash/);
    expect(() => asciiOnly('const out = String.raw`中`;')).toThrow(/String\.raw/);
  });
});
