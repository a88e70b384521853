// keel::pack — composite data files. Umbrella header; see README.md.
#pragma once

#include "keel/pack/allocator.h"
#include "keel/pack/async_loader.h"
#include "keel/pack/compression.h"
#include "keel/pack/format.h"
#include "keel/pack/loader.h"
#include "keel/pack/merge.h"
#include "keel/pack/pack_file.h"
#include "keel/pack/setup.h"
#include "keel/pack/writer.h"
