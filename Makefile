# OpenBench's build convention (`make EXE=<name>`), for engines of any
# language: build the engine and leave the binary at $(EXE).
#
#   make                      # ./hashmate, portable x86-64 build
#   make EXE=hm-dev           # another name
#   make EXE=hm NATIVE=1      # tuned for this CPU (-C target-cpu=native)
#
# Needs a Rust toolchain (1.87 or newer); the binary is the same as
# `cargo build --release`'s target/release/hashmate.

EXE ?= hashmate
CARGO ?= cargo
ifeq ($(NATIVE),1)
RUSTFLAGS += -C target-cpu=native
export RUSTFLAGS
endif

.PHONY: all clean

all:
	$(CARGO) build --release -p hashmate-cli --bin hashmate
	cp target/release/hashmate "$(EXE)"

clean:
	$(CARGO) clean
