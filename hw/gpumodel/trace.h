#include "trace/trace-hw_gpumodel.h"
