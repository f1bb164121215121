/**
 * A submitting MCP tool's requestKey (mcp-request-keys.ts) given again by a retry that writes the
 * same arguments in another order: a client that builds a call's JSON again (a Python dict filled
 * in another order, a map serialised anew) sends a model's params, a record, with its fields in
 * another order, and the schemas keep a record's order as the client wrote it. The retry is the
 * same submit: it gets the first's tasks and sends nothing, where it was refused as "other
 * arguments" (nothing sent, and an agent told so would send it again under a new key: the double
 * submit the key is for). Arguments that differ in a value are still other arguments.
 */
import { describe, expect, it } from 'vitest';
import type { Spent } from '../../../electron/cli/mcp/mcp-spend';
import { type KeyedCall, RequestKeys } from '../../../electron/cli/mcp/mcp-request-keys';
import { generationRequestSchema } from '../../../shared/service/wire';

/** `params` as the tools' schema reads them from a client's JSON text. */
function paramsAsRead(json: string) {
  return generationRequestSchema().shape.params.parse(JSON.parse(json));
}

describe('a requestKey given again with the params in another order', () => {
  it('is the same submit: the first’s tasks, nothing sent', async () => {
    const first = paramsAsRead('{"steps": 20, "guidance": 3.5, "style": "film"}');
    const again = paramsAsRead('{"style": "film", "guidance": 3.5, "steps": 20}');
    // The schema keeps the order the client wrote.
    expect(Object.keys(again ?? {})).toEqual(['style', 'guidance', 'steps']);
    const keys = new RequestKeys<string>();
    let sent = 0;
    const submit = () => Promise.resolve<Spent<string>>({ ok: true, value: `task-${++sent}` });
    /** A generate's arguments as the server reads them. */
    type Call = KeyedCall & Record<string, unknown>;
    const call: Call = { requestKey: 'k', prompt: 'a kite', size: { width: 64, height: 48 } };
    const firstCall: Call = { ...call, params: first };
    expect(await keys.once(firstCall, submit)).toMatchObject({ repeated: false });
    const retry: Call = {
      params: again,
      size: { height: 48, width: 64 },
      prompt: 'a kite',
      requestKey: 'k',
      wait: true,
    };
    expect(await keys.once(retry, submit)).toEqual({ ok: true, value: 'task-1', repeated: true });
    const otherCall: Call = {
      ...call,
      params: paramsAsRead('{"style": "film", "guidance": 3.5, "steps": 21}'),
    };
    expect(await keys.once(otherCall, submit)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('other arguments'),
    });
    expect(sent).toBe(1);
  });
});
