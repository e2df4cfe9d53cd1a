/** How structured output is asked for; an endpoint without one gets the next mode down. */
export type OutputMode = 'json_schema' | 'json_object' | 'none';

/** What one model of an endpoint was found to refuse, and how the wire asks it since. */
export interface ParameterAdaptation {
  /** Parameters no longer sent (`temperature`, `reasoning_effort`). */
  dropped: string[];
  /** Parameters sent under another name (`{"max_tokens": "max_completion_tokens"}`). */
  renamed: Record<string, string>;
  /** The structured-output mode that worked, when `json_schema` was refused. */
  outputMode?: OutputMode;
}

/** A change just learned, for whoever keeps or reports them. */
export type LearnedAdaptation =
  | { kind: 'dropped'; parameter: string }
  | { kind: 'renamed'; parameter: string; replacement: string }
  | { kind: 'output-mode'; outputMode: OutputMode };

const none: ParameterAdaptation = { dropped: [], renamed: {} };

/**
 * The adaptations of one endpoint, by model. Learned from its 400s (see `OpenAiChatModel`) and
 * applied to every later request for that model, the Batch API's lines included. A store keeps
 * them across runs through `onLearn` (srag's DuckDB file, in `srag_endpoint_adaptations`); they
 * hold parameter names and nothing else, never a key.
 */
export class ParameterAdaptations {
  private readonly byModel = new Map<string, ParameterAdaptation>();

  constructor(
    learned: Readonly<Record<string, ParameterAdaptation>> = {},
    private readonly onLearn?: (model: string, adaptation: ParameterAdaptation, learned: LearnedAdaptation) => void,
  ) {
    for (const [model, adaptation] of Object.entries(learned)) this.byModel.set(model, { dropped: [...adaptation.dropped], renamed: { ...adaptation.renamed }, ...(adaptation.outputMode ? { outputMode: adaptation.outputMode } : {}) });
  }

  for(model: string): ParameterAdaptation {
    return this.byModel.get(model) ?? none;
  }

  learn(model: string, learned: LearnedAdaptation): void {
    const current = this.byModel.get(model) ?? { dropped: [], renamed: {} };
    const next: ParameterAdaptation = { dropped: [...current.dropped], renamed: { ...current.renamed }, ...(current.outputMode ? { outputMode: current.outputMode } : {}) };
    if (learned.kind === 'dropped' && !next.dropped.includes(learned.parameter)) next.dropped.push(learned.parameter);
    if (learned.kind === 'renamed') next.renamed[learned.parameter] = learned.replacement;
    if (learned.kind === 'output-mode') next.outputMode = learned.outputMode;
    this.byModel.set(model, next);
    this.onLearn?.(model, next, learned);
  }
}
