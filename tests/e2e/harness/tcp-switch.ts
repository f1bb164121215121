/**
 * A loopback TCP relay in front of the demo service: the app's "network". Off closes the
 * listener and destroys every open connection (the app's next request is refused, as with the
 * cable pulled); on listens again on the same port, so the app's base URL keeps working.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export class TcpSwitch {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  private port = 0;

  private constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Starts switched on, on a free port of 127.0.0.1. */
  static async start(target: { host: string; port: number }): Promise<TcpSwitch> {
    const relay = new TcpSwitch(target.host, target.port);
    await relay.on();
    return relay;
  }

  /** `http://127.0.0.1:<port>`: the same for the switch's whole life. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get isOn(): boolean {
    return this.server !== null;
  }

  async on(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => this.relay(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async off(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await closed;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private relay(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    this.track(client);
    this.track(upstream);
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end).once('close', end);
    upstream.once('error', end).once('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
