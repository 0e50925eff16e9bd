//go:build !amd64

package jsonscan

// ContainerEnd returns the index just past the object or array at b[i]:
// containerEndBytes (amd64 reads 64 bytes at a time instead).
func ContainerEnd(b []byte, i, maxDepth int) int {
	return containerEndBytes(b, i, maxDepth)
}
