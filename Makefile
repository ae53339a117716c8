# The README's two commands: `make demo` and `make test`. Each builds .venv on first use.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
export HF_HUB_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
export RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0
export RAY_USAGE_STATS_ENABLED=0
export LANCEDB_LOG=error

.PHONY: demo test install bench clean

# Two stamps: the demo needs only the default install (the ONNX model, no torch); the tests need
# every extra they exercise. A venv made for the tests also satisfies the demo.
DEMO_STAMP := $(VENV)/.installed-demo

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	# torch first, from the CPU wheel on local disk: a plain `torch` requirement would pull a multi-GB CUDA build.
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev,langgraph,torch]'
	touch $(STAMP) $(DEMO_STAMP)

$(DEMO_STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q -e .
	touch $(DEMO_STAMP)

install: $(STAMP)

demo: $(DEMO_STAMP)
	$(BIN)/warrant demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_control_plane.py

clean:
	rm -rf $(VENV) .warrant build *.egg-info
