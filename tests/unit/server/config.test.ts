// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@/server/config';

describe('loadConfig', () => {
  it('has defaults that start the product with no configuration', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.publicUrl).toBe('http://localhost:3000');
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.DATABASE_URL).toBeUndefined();
  });

  it('stops with a clear message naming each bad variable', () => {
    const bad = () =>
      loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', PUBLIC_URL: 'nota url' });
    expect(bad).toThrow(ConfigError);
    try {
      bad();
    } catch (e) {
      const text = (e as Error).message;
      expect(text).toMatch(/^Configuração inválida:/);
      for (const name of [
        'PORT="abc"',
        'DATABASE_URL="mysql://x"',
        'SMTP_URL="http://mail"',
        'PUBLIC_URL="nota url"',
      ]) {
        expect(text).toContain(name);
      }
    }
  });

  it('treats empty variables as unset and trims the public URL', () => {
    const c = loadConfig({ PORT: '', DATABASE_URL: '', PUBLIC_URL: 'https://painel.loja.com.br/' });
    expect(c.PORT).toBe(3000);
    expect(c.DATABASE_URL).toBeUndefined();
    expect(c.publicUrl).toBe('https://painel.loja.com.br');
  });
});
