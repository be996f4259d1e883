//===- compiler/driver/Suggest.cpp ----------------------------------------===//

#include "compiler/driver/Suggest.h"

#include <algorithm>

using namespace llvm;

namespace bcastc {

std::string nearestName(StringRef Given, ArrayRef<StringRef> Known) {
  StringRef Best;
  unsigned BestDistance = ~0u;
  for (StringRef K : Known) {
    if (K == Given)
      return "";
    size_t Longer = std::max(K.size(), Given.size());
    unsigned Limit = unsigned(std::min<size_t>(3, std::max<size_t>(1, Longer / 3)));
    unsigned D = Given.edit_distance(K, /*AllowReplacements=*/true, Limit);
    // Ties go to the first name, so the answer does not depend on more
    // than the order of the list.
    if (D <= Limit && D < BestDistance) {
      Best = K;
      BestDistance = D;
    }
  }
  return Best.str();
}

std::string didYouMean(StringRef Given, ArrayRef<StringRef> Known) {
  std::string N = nearestName(Given, Known);
  return N.empty() ? "" : "; did you mean '" + N + "'?";
}

} // namespace bcastc
