import type { ChatRequest } from './chat-request.ts';
import { identifyingLine } from './classify-request.ts';
import type { GoldCorpus } from './load-gold-corpus.ts';
import { invalidRequestReply, type Reply } from './reply.ts';
import { respondAnswer } from './respond-answer.ts';
import { respondAnswerFromContext } from './respond-answer-from-context.ts';
import { respondJudgeAnswerComparison, respondJudgeClaims, respondJudgeClaimSupported } from './respond-judges.ts';
import { respondExtractRecord } from './respond-extract-record.ts';
import { respondExtractRecordBatch } from './respond-extract-record-batch.ts';
import { respondPredictSchemaFirst, respondRefineSchema } from './respond-predict-schema.ts';
import { respondGenerateSql, respondRepairSql } from './respond-sql.ts';
import { respondSynthesizeExtractors } from './respond-synthesize-extractors.ts';
import { respondTargetSchema } from './respond-target-schema.ts';
import type { BatchSlip, ExtractorFault, ModelSlip, RequestKind } from './types.ts';

export interface ResponderContext {
  corpora: GoldCorpus[];
  brokenSql: { enabled: boolean; alreadyBroken: Set<string> };
  slips: readonly ModelSlip[];
  slipProperties: readonly string[];
  extractorSlips: readonly string[];
  extractorFaults: Readonly<Record<string, ExtractorFault>>;
  batchSlips: readonly BatchSlip[];
}

/** Routes a classified request to its responder; answer-from-context answers asynchronously (it runs DuckDB). */
export function respondToChat(kind: RequestKind, request: ChatRequest, context: ResponderContext): Reply | Promise<Reply> {
  switch (kind) {
    case 'extract-record':
      return respondExtractRecord(request, context.corpora, context.slips, context.slipProperties);
    case 'extract-record-batch':
      return respondExtractRecordBatch(request, context.corpora, context.slips, context.slipProperties, context.batchSlips);
    case 'synthesize-extractors':
      return respondSynthesizeExtractors(request, context.corpora, context.extractorSlips, context.extractorFaults);
    case 'predict-schema-first':
      return respondPredictSchemaFirst(request, context.corpora);
    case 'refine-schema':
      return respondRefineSchema(request, context.corpora);
    case 'generate-sql':
      return respondGenerateSql(request, context.corpora, context.brokenSql);
    case 'repair-sql':
      return respondRepairSql(request, context.corpora);
    case 'answer':
      return respondAnswer(request);
    case 'answer-from-context':
      return respondAnswerFromContext(request, context.corpora);
    case 'answer-from-documents':
      return respondAnswerFromContext(request, context.corpora, { hybrid: true });
    case 'judge-answer-comparison':
      return respondJudgeAnswerComparison(request);
    case 'judge-answer-recall-claims':
      return respondJudgeClaims(request);
    case 'judge-claim-supported':
      return respondJudgeClaimSupported(request);
    case 'target-schema':
      return respondTargetSchema(request, context.corpora);
    case 'unknown':
      return invalidRequestReply(
        `the LLM stand-in does not recognise the prompt; its first line is: ${JSON.stringify(identifyingLine(request))}`,
        'messages',
      );
  }
}
