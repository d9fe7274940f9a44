#include "testbenches/workloads/graph/graph_reference.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <utility>

namespace syncron {
namespace {

uint64_t mix(uint64_t x) {
    // splitmix64's finaliser: well spread, the same everywhere.
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

} // namespace

uint32_t edge_weight(uint32_t u, uint32_t v, uint64_t seed) {
    const uint64_t lo = std::min(u, v), hi = std::max(u, v);
    return static_cast<uint32_t>(1 + mix(seed ^ mix(lo << 32 | hi)) % 15);
}

uint32_t vertex_age(uint32_t v, uint64_t seed) { return static_cast<uint32_t>(10 + mix(seed * 31 + v) % 20); }

std::vector<uint64_t> bfs_levels(const Graph& g, uint32_t source) {
    std::vector<uint64_t> level(g.vertices, kUnreached);
    std::queue<uint32_t> q;
    level[source] = 0;
    q.push(source);
    while (!q.empty()) {
        const uint32_t v = q.front();
        q.pop();
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint32_t w = g.neighbours[i];
            if (level[w] == kUnreached) {
                level[w] = level[v] + 1;
                q.push(w);
            }
        }
    }
    return level;
}

std::vector<uint64_t> component_labels(const Graph& g) {
    std::vector<uint64_t> label(g.vertices, kUnreached);
    for (uint32_t s = 0; s < g.vertices; ++s) {
        if (label[s] != kUnreached) continue;
        // s is the smallest ID of its component: the search reaches no smaller unlabelled vertex.
        std::vector<uint32_t> stack{s};
        label[s] = s;
        while (!stack.empty()) {
            const uint32_t v = stack.back();
            stack.pop_back();
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
                if (label[g.neighbours[i]] == kUnreached) {
                    label[g.neighbours[i]] = s;
                    stack.push_back(g.neighbours[i]);
                }
        }
    }
    return label;
}

std::vector<uint64_t> shortest_distances(const Graph& g, uint32_t source, uint64_t seed) {
    std::vector<uint64_t> dist(g.vertices, kUnreached);
    using Item = std::pair<uint64_t, uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
    dist[source] = 0;
    q.emplace(0, source);
    while (!q.empty()) {
        const auto [d, v] = q.top();
        q.pop();
        if (d != dist[v]) continue;
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint32_t w = g.neighbours[i];
            const uint64_t nd = d + edge_weight(v, w, seed);
            if (nd < dist[w]) {
                dist[w] = nd;
                q.emplace(nd, w);
            }
        }
    }
    return dist;
}

std::vector<double> pagerank(const Graph& g, unsigned iterations) {
    const double n = g.vertices;
    std::vector<double> rank(g.vertices, 1.0 / n), next(g.vertices, 0.0);
    for (unsigned k = 0; k < iterations; ++k) {
        std::fill(next.begin(), next.end(), 0.0);
        for (uint32_t v = 0; v < g.vertices; ++v) {
            if (g.degree(v) == 0) continue;
            const double share = rank[v] / double(g.degree(v));
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) next[g.neighbours[i]] += share;
        }
        for (uint32_t v = 0; v < g.vertices; ++v) rank[v] = (1.0 - kPageRankDamping) / n + kPageRankDamping * next[v];
    }
    return rank;
}

std::vector<double> pagerank_pull(const Graph& g, unsigned iterations) {
    const double n = g.vertices;
    std::vector<double> rank(g.vertices, 1.0 / n), next(g.vertices, 0.0);
    for (unsigned k = 0; k < iterations; ++k) {
        double dangling = 0;
        for (uint32_t v = 0; v < g.vertices; ++v)
            if (g.degree(v) == 0) dangling += rank[v];
        for (uint32_t v = 0; v < g.vertices; ++v) {
            double sum = 0;
            for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i)
                sum += rank[g.neighbours[i]] / double(g.degree(g.neighbours[i]));
            next[v] = (1.0 - kPageRankDamping) / n + kPageRankDamping * (sum + dangling / n);
        }
        rank.swap(next);
    }
    return rank;
}

std::vector<uint64_t> teen_followers(const Graph& g, uint64_t seed) {
    std::vector<uint64_t> count(g.vertices, 0);
    for (uint32_t v = 0; v < g.vertices; ++v) {
        if (!is_teen(vertex_age(v, seed))) continue;
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) ++count[g.neighbours[i]];
    }
    return count;
}

std::vector<uint64_t> triangles(const Graph& g) {
    std::vector<uint64_t> count(g.vertices, 0);
    for (uint32_t v = 0; v < g.vertices; ++v)
        for (uint64_t i = g.offsets[v]; i < g.offsets[v + 1]; ++i) {
            const uint32_t u = g.neighbours[i];
            if (u <= v) continue;
            for (uint64_t j = g.offsets[u]; j < g.offsets[u + 1]; ++j) {
                const uint32_t w = g.neighbours[j];
                if (w > u && g.adjacent(v, w)) {
                    ++count[v];
                    ++count[u];
                    ++count[w];
                }
            }
        }
    return count;
}

} // namespace syncron
