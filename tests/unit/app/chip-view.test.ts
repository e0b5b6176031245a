import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { canConnect, canDisconnect, qrCodeValue, simulatorPageUrl } from '@/app/features/chips/chip-view';
import { chipsQuery as shellChipsQuery } from '@/app/lib/chips';
import { chipsQuery } from '@/app/lib/lists';
import { applyEvent } from '@/app/shell/use-realtime';
import type { Chip } from '@/shared/contract';

const ORIGIN = 'https://painel.example.com';

describe('the QR code of a chip (spec 3 §4)', () => {
  it('completes the simulator path with the page origin; leaves other codes as they are', () => {
    expect(qrCodeValue('/simulador/abc?pair=x', ORIGIN)).toBe(`${ORIGIN}/simulador/abc?pair=x`);
    expect(qrCodeValue('https://srv.example.com/simulador/abc', ORIGIN)).toBe(
      'https://srv.example.com/simulador/abc',
    );
    // A real provider's code is opaque text, encoded as it comes.
    expect(qrCodeValue('2@AbC,dEf==,1', ORIGIN)).toBe('2@AbC,dEf==,1');
    expect(qrCodeValue('//evil.example.com/x', ORIGIN)).toBe('//evil.example.com/x');
  });

  it('offers the simulator link only for an http(s) link to a simulator page', () => {
    expect(simulatorPageUrl('/simulador/abc?pair=x', ORIGIN)).toBe(`${ORIGIN}/simulador/abc?pair=x`);
    expect(simulatorPageUrl('http://127.0.0.1:3000/simulador/t', ORIGIN)).toBe(
      'http://127.0.0.1:3000/simulador/t',
    );
    expect(simulatorPageUrl('2@AbC,dEf==,1', ORIGIN)).toBeNull();
    expect(simulatorPageUrl('javascript:alert(1)//simulador/', ORIGIN)).toBeNull();
    expect(simulatorPageUrl('https://srv.example.com/outra-coisa', ORIGIN)).toBeNull();
  });

  it('hides Conectar while open, while a code waits, or when changed; Desconectar while open or connecting', () => {
    const base = { status: 'close' as const, qrcode: null, changed: false };
    expect(canConnect(base)).toBe(true);
    expect(canConnect({ ...base, status: 'open' })).toBe(false);
    expect(canConnect({ ...base, status: 'connecting', qrcode: '/simulador/x' })).toBe(false);
    expect(canConnect({ ...base, changed: true })).toBe(false);
    expect(canDisconnect({ status: 'open' })).toBe(true);
    expect(canDisconnect({ status: 'connecting' })).toBe(true);
    expect(canDisconnect({ status: 'new' })).toBe(false);
    expect(canDisconnect({ status: 'configuring' })).toBe(false);
  });
});

describe("the socket's chip events land in the one chips cache", () => {
  const chip = (id: string, patch: Partial<Chip> = {}) => ({
    _id: id,
    status: 'close',
    qrcode: null,
    ...patch,
  });

  it('is the same query for the screen and the shell', () => {
    expect(chipsQuery.queryKey).toEqual(shellChipsQuery.queryKey);
  });

  it('qrcode sets the code and Conectando; status takes the code away', () => {
    const client = new QueryClient();
    client.setQueryData(chipsQuery.queryKey, [chip('a'), chip('b')] as Chip[]);
    applyEvent(client, 'u1', { type: 'qrcode', chip_number_id: 'a', message: '/simulador/t?pair=p' });
    expect(client.getQueryData<Chip[]>(chipsQuery.queryKey)).toEqual([
      chip('a', { status: 'connecting', qrcode: '/simulador/t?pair=p' }),
      chip('b'),
    ]);
    applyEvent(client, 'u1', { type: 'status', chip_number_id: 'a', message: 'open' });
    expect(client.getQueryData<Chip[]>(chipsQuery.queryKey)).toEqual([
      chip('a', { status: 'open' }),
      chip('b'),
    ]);
  });

  it('an event of a chip the cache does not know asks for the list again', () => {
    const client = new QueryClient();
    client.setQueryData(chipsQuery.queryKey, [chip('a')] as Chip[]);
    applyEvent(client, 'u1', { type: 'status', chip_number_id: 'z', message: 'open' });
    expect(client.getQueryState(chipsQuery.queryKey)?.isInvalidated).toBe(true);
  });
});
