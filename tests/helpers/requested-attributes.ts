import type { RecordedRequest } from './llm-stand-in/index.ts';

/**
 * The attributes an extraction request asked for: the properties of the record its structured
 * output must be (in a batch, of each record under "records", less the document id that comes first).
 */
function requestedAttributes(body: { response_format: { json_schema: { schema: { properties: Record<string, { items?: { properties: object } }> } } } }): string[] {
  const { properties } = body.response_format.json_schema.schema;
  const batchRecord = properties.records?.items;
  return batchRecord ? Object.keys(batchRecord.properties).slice(1) : Object.keys(properties);
}

/** Per document an extraction request carried (several share a call by default), the attributes it asked for. */
export function requestedAttributesPerDocument(requests: readonly RecordedRequest[]): string[][] {
  return requests.filter((request) => request.kind.startsWith('extract-record')).flatMap((request) => {
    const documents = request.kind === 'extract-record-batch' ? request.body.messages[1]!.content.match(/^<document id="/gm)!.length : 1;
    return Array.from({ length: documents }, () => requestedAttributes(request.body));
  });
}

/** How many extraction requests (single or batch) were sent. */
export function extractionCallCount(requests: readonly RecordedRequest[]): number {
  return requests.filter((request) => request.kind.startsWith('extract-record')).length;
}
