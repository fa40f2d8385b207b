// protobufjs encode/decode for runtime.v1, from the hand-written schema in runtimeProto.ts. Replies become
// plain objects in crictl's JSON shape (camelCase, int64 as decimal strings, enums as names), so one
// parser (src/core/parse/criJson.ts) serves both gRPC and crictl.

import protobuf from 'protobufjs';
import { RUNTIME_V1_PROTO } from './runtimeProto';

export const RUNTIME_SERVICE = 'runtime.v1.RuntimeService';

export class ProtoCodec {
  private readonly types = new Map<string, protobuf.Type>();

  constructor(readonly root: protobuf.Root) {}

  /** A codec over a fresh root holding runtime.v1 plus optional extra proto text (test support adds RPCs). */
  static create(...extraProtoTexts: string[]): ProtoCodec {
    const root = new protobuf.Root();
    protobuf.parse(RUNTIME_V1_PROTO, root, { keepCase: false });
    for (const text of extraProtoTexts) protobuf.parse(text, root, { keepCase: false });
    root.resolveAll();
    return new ProtoCodec(root);
  }

  type(name: string): protobuf.Type {
    let type = this.types.get(name);
    if (!type) {
      type = this.root.lookupType(`runtime.v1.${name}`);
      this.types.set(name, type);
    }
    return type;
  }

  /**
   * The request/response type names and the HTTP/2 path of a RuntimeService method. protobufjs cannot merge
   * two declarations of one service, so extra proto texts declare theirs under another service name in
   * runtime.v1; the wire path is always /runtime.v1.RuntimeService/<Method>.
   */
  method(name: string): { path: string; requestType: string; responseType: string } {
    const pkg = this.root.lookup('runtime.v1');
    const services = pkg instanceof protobuf.Namespace ? pkg.nestedArray.filter((n): n is protobuf.Service => n instanceof protobuf.Service) : [];
    const method = services.map((service) => service.methods[name]).find((m) => m !== undefined);
    if (!method) throw new Error(`RuntimeService has no method ${name} in our proto subset`);
    return { path: `/${RUNTIME_SERVICE}/${name}`, requestType: method.requestType, responseType: method.responseType };
  }

  encode(typeName: string, value: Record<string, unknown>): Uint8Array {
    const type = this.type(typeName);
    // fromObject accepts enum names and decimal-string int64s; verify then checks what it produced.
    const message = type.fromObject(value);
    const problem = type.verify(message);
    if (problem) throw new Error(`invalid ${typeName}: ${problem}`);
    return type.encode(message).finish();
  }

  decode(typeName: string, bytes: Uint8Array): Record<string, unknown> {
    const type = this.type(typeName);
    return type.toObject(type.decode(bytes), { longs: String, enums: String, defaults: true, arrays: true, objects: true });
  }
}
