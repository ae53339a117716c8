"""An agent backed by any OpenAI-compatible chat endpoint (vLLM, llama.cpp server, a hosted API).

It asks for structured output against the contract's JSON Schema (`response_format` json_schema,
which vLLM enforces with guided decoding) and hands back the raw text: the gate, not this class,
decides whether it is an artifact. Transport failures and answers that carry no content become an
`AgentError` with violations, so a bad endpoint is a structured rejection like any other.
httpx only; no vendor SDK.
"""

from __future__ import annotations

import json
from typing import Any

import httpx

from warrant.runtime.contract import json_schema
from warrant.runtime.graph.agent import AgentContext, AgentError
from warrant.runtime.violations import Violation

SYSTEM_PROMPT = """You are the {node} agent in an invoice-audit graph run by Warrant.
Answer with ONE JSON object that validates against the given JSON Schema (the hand-off artifact), nothing else.
Rules: set run_id to "{run_id}" and from_agent to "{node}". Every Assertion is split into propositions,
each citing ledger_ids taken ONLY from the evidence list you are given (never invent ids, never cite
another agent's artifact). Never send entailment or confidence: only the verifier writes them. A Quote copies text verbatim from the
record named in quote_of. Text for a client is a Conjecture. If the evidence does not settle something,
do not guess: put it in open_questions instead. Predicates: {predicates}."""

PREDICATES = ("line_rate{invoice_id,line_id,rate,currency}, line_hours{invoice_id,line_id,hours}, "
              "line_amount{invoice_id,line_id,amount,currency}, exceeds_cap{invoice_id,line_id}, "
              "hourly_cap{client_id,amount,currency}, payment_terms{client_id,days}, statement{text}")


class LLMAgent:
    def __init__(
        self,
        name: str,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        system_prompt: str = SYSTEM_PROMPT,
        timeout_s: float = 120.0,
        max_evidence_chars: int = 2000,
        temperature: float = 0.0,
        strict_schema: bool = False,  # OpenAI's strict mode wants every field required; vLLM does not
        client: httpx.Client | None = None,
    ):
        self.name = name
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.system_prompt = system_prompt
        self.max_evidence_chars = max_evidence_chars
        self.temperature = temperature
        self.strict_schema = strict_schema
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = client or httpx.Client(timeout=timeout_s, headers=headers)

    def request(self, ctx: AgentContext) -> dict[str, Any]:
        """The chat-completions request body for this turn (exposed for logging and tests)."""
        system = self.system_prompt.format(node=ctx.node, run_id=ctx.run_id, predicates=PREDICATES)
        user = {
            "task": ctx.task,
            "round": ctx.round,
            "inbox": [a.model_dump(mode="json") for a in ctx.inbox],
            "evidence": [
                {"ledger_id": e.ledger_id, "kind": e.kind, "source": e.source, "text": e.text[: self.max_evidence_chars]}
                for e in ctx.evidence
            ],
            "feedback": [f.model_dump(mode="json") for f in ctx.feedback],
        }
        return {
            "model": self.model,
            "temperature": self.temperature,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": json.dumps(user, ensure_ascii=False)},
            ],
            "response_format": {
                "type": "json_schema",
                "json_schema": {"name": "warrant_artifact", "schema": json_schema(), "strict": self.strict_schema},
            },
        }

    def act(self, ctx: AgentContext) -> str:
        url = f"{self.base_url}/chat/completions"
        try:
            resp = self._client.post(url, json=self.request(ctx))
        except httpx.HTTPError as exc:
            raise AgentError("agent_http_error", f"{type(exc).__name__} calling {url}: {exc}") from None
        if resp.status_code != 200:
            raise AgentError(
                "agent_http_status", f"{url} answered HTTP {resp.status_code}",
                [Violation(code="agent_http_status", loc="$", message=f"{url} answered HTTP {resp.status_code}",
                           expected=200, got=resp.text[:300])],
            )
        try:
            body = resp.json()
        except ValueError:
            raise AgentError("agent_bad_response", "the endpoint's answer is not JSON",
                             [Violation(code="agent_bad_response", loc="$", message="the endpoint's answer is not JSON",
                                        expected="a chat completion object", got=resp.text[:300])]) from None
        message = _message(body)
        if isinstance(message.get("refusal"), str) and message["refusal"]:
            raise AgentError("agent_refused", message["refusal"][:500],
                             [Violation(code="agent_refused", loc="$.choices[0].message.refusal", message="the model refused",
                                        got=message["refusal"][:300])])
        content = message.get("content")
        if not isinstance(content, str) or not content.strip():
            raise AgentError("agent_bad_response", "the completion has no text content",
                             [Violation(code="agent_bad_response", loc="$.choices[0].message.content",
                                        message="expected the artifact as a JSON string", expected="string",
                                        got=type(content).__name__)])
        return content  # untrusted: the gate parses and checks it

    def close(self) -> None:
        self._client.close()


def _message(body: Any) -> dict[str, Any]:
    try:
        msg = body["choices"][0]["message"]
        if isinstance(msg, dict):
            return msg
    except (KeyError, IndexError, TypeError):
        pass
    raise AgentError("agent_bad_response", "the answer has no choices[0].message",
                     [Violation(code="agent_bad_response", loc="$.choices[0].message", message="not a chat completion",
                                expected="object", got=None)])


__all__ = ["LLMAgent", "PREDICATES", "SYSTEM_PROMPT"]
