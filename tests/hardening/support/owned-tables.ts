/**
 * The socket tables with a port's rows made another user's: the fault the local-server tests inject
 * (core/service/local-owner.ts reads the owner's uid from these rows), on a real listener's rows.
 */
import type { SocketTables } from '../../../electron/core/service/local-owner';

/** The tables with every row on `port` owned by `uid`: the socket is another user's. */
export function ownedBy(tables: SocketTables, port: number, uid: number): SocketTables {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const rewrite = (table: string | null) =>
    table
      ?.split('\n')
      .map((line) =>
        line.includes(`:${hexPort} `)
          ? line.replace(/^(\s*\d+:(?:\s+\S+){6}\s+)\d+/, `$1${uid}`)
          : line,
      )
      .join('\n') ?? null;
  return { tcp: rewrite(tables.tcp), tcp6: rewrite(tables.tcp6) };
}
